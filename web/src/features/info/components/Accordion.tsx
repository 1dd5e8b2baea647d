//! An accordion: each item is a heading holding a button (aria-expanded, aria-controls) and a
//! labelled region that is shown only while the item is open. Any number may be open.
import { useId, useState, type ReactNode } from 'react';
import '../info.css';

export interface AccordionItem {
  id: string;
  title: string;
  body: ReactNode;
}

export function Accordion({ items }: { items: AccordionItem[] }) {
  const base = useId();
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <div className="faq">
      {items.map((item) => {
        const expanded = open.has(item.id);
        const buttonId = `${base}-${item.id}-button`;
        const regionId = `${base}-${item.id}-region`;
        return (
          <div key={item.id} className="faq__item">
            <h2 className="faq__question">
              <button
                type="button"
                id={buttonId}
                className="faq__button"
                aria-expanded={expanded}
                aria-controls={regionId}
                onClick={() => toggle(item.id)}
              >
                {item.title}
              </button>
            </h2>
            <div id={regionId} role="region" aria-labelledby={buttonId} className="faq__answer" hidden={!expanded}>
              {item.body}
            </div>
          </div>
        );
      })}
    </div>
  );
}
