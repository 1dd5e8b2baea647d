// Share opens the system sheet where there is one, else copies the link.
import { describe, expect, it, vi } from 'vitest';
import { canShare, shareLink } from './share';

const URL_ = 'http://127.0.0.1:8080/sign-up?referred=true&code=AB2CD3EF';

describe('sharing the link', () => {
  it('opens the share sheet with the link where the browser has one', async () => {
    const share = vi.fn(async () => {});
    const writeText = vi.fn(async () => {});
    expect(canShare({ share })).toBe(true);
    expect(await shareLink({ share, clipboard: { writeText } }, 'Join me', URL_)).toBe('shared');
    expect(share).toHaveBeenCalledWith({ title: 'Evidentia', text: 'Join me', url: URL_ });
    expect(writeText).not.toHaveBeenCalled();
  });

  it('leaves it when the user closes the sheet', async () => {
    const share = vi.fn(async () => {
      throw new DOMException('closed', 'AbortError');
    });
    const writeText = vi.fn(async () => {});
    expect(await shareLink({ share, clipboard: { writeText } }, 'Join me', URL_)).toBe('cancelled');
    expect(writeText).not.toHaveBeenCalled();
  });

  it('copies the link without a share sheet, or when the sheet fails', async () => {
    const writeText = vi.fn(async () => {});
    expect(canShare({ clipboard: { writeText } })).toBe(false);
    expect(await shareLink({ clipboard: { writeText } }, 'Join me', URL_)).toBe('copied');
    const failing = vi.fn(async () => {
      throw new DOMException('denied', 'NotAllowedError');
    });
    expect(await shareLink({ share: failing, clipboard: { writeText } }, 'Join me', URL_)).toBe('copied');
    expect(writeText).toHaveBeenCalledWith(URL_);
  });

  it('fails when neither works', async () => {
    const writeText = vi.fn(async () => {
      throw new Error('no clipboard');
    });
    expect(await shareLink({ clipboard: { writeText } }, 'Join me', URL_)).toBe('failed');
    expect(await shareLink({}, 'Join me', URL_)).toBe('failed');
  });
});
