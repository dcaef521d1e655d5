import { processHtml } from './index';

const URL = 'https://shop.example.com/item/42.html';
const text = (html: string): string => processHtml(html, { url: URL, formats: ['text'] }).text;

const footer = `<footer><div class="site-footer"><dl><dt><h5>Help</h5></dt><dd>${Array.from(
  { length: 12 },
  (_, i) => `<a href="/help/${i}">Help topic number ${i}</a>, `,
).join('')}</dd></dl><p>Terms of use - Privacy policy - Sitemap. All rights reserved.</p></div></footer>`;

describe('script-rendered shells', () => {
  it('gives no content when the page shows only its footer (an empty mount point)', () => {
    const shell = `<html><head><title>Item</title></head><body><div style="display:none"><h1>Shop</h1></div><div id="root"></div>${footer}</body></html>`;
    expect(text(shell)).toBe('');
  });

  it('keeps a page whose footer sits beside real content', () => {
    const body = `<p>${'A real paragraph of the page, with words and commas, long enough. '.repeat(4)}</p>`;
    const page = `<html><body><div id="root">${body}</div>${footer}</body></html>`;
    expect(text(page)).toContain('A real paragraph of the page');
  });

  it('keeps content wrapped in a misused footer (it holds a main heading)', () => {
    const page = `<html><body><footer><h1>Kettle</h1><p>${'The kettle boils water fast, quietly, and safely. '.repeat(4)}</p></footer></body></html>`;
    expect(text(page)).toContain('The kettle boils water fast');
  });
});
