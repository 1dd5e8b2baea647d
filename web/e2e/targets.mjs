// WCAG 2.2 target size (2.5.8), measured in the page: run with page.evaluate(undersizedTargets).
// Not a test file itself (node --test runs only *.test.mjs).
/* global document, getComputedStyle, innerHeight -- the function runs in the browser. */

/**
 * The visible controls under 24 x 24 CSS px; links inside a sentence (a block with other text) are
 * exempt, as WCAG 2.5.8 allows. With `spacing`, also those its spacing exception covers (a 24 px
 * circle on the control's centre meets no other control); without, every other control must be
 * 24 x 24 itself, the app's own rule.
 */
export function undersizedTargets({ spacing = false } = {}) {
  const MIN = 24;
  const selector = 'button, a[href], input[type=checkbox], input[type=radio], [role=button], select, input[type=range]';
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none' && r.bottom > 0 && r.top < innerHeight;
  };
  const inSentence = (el) => {
    if (el.tagName !== 'A') return false;
    const block = el.closest('p, li, dd, span.muted');
    return Boolean(block) && block.textContent.trim().length > el.textContent.trim().length;
  };
  const targets = [...document.querySelectorAll(selector)].filter(visible).map((el) => ({ el, r: el.getBoundingClientRect() }));
  const small = (t) => t.r.width < MIN || t.r.height < MIN;
  const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];
  const distanceToRect = ([x, y], r) => Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
  const spaced = (t) =>
    targets.every((o) => {
      if (o === t || o.el.contains(t.el) || t.el.contains(o.el)) return true;
      const c = centre(t.r);
      return small(o) ? Math.hypot(c[0] - centre(o.r)[0], c[1] - centre(o.r)[1]) >= MIN : distanceToRect(c, o.r) >= MIN / 2;
    });
  return targets
    .filter((t) => small(t) && !inSentence(t.el) && !(spacing && spaced(t)))
    .map((t) => `${t.el.tagName.toLowerCase()} '${(t.el.getAttribute('aria-label') ?? t.el.textContent ?? '').trim().slice(0, 40)}' ${Math.round(t.r.width)}x${Math.round(t.r.height)}`);
}
