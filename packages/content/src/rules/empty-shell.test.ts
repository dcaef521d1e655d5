import { processHtml } from '../index';

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

  describe('a page saved while its content slot was loading (aria-busy)', () => {
    const links = (n: number, label: string): string =>
      Array.from(
        { length: n },
        (_, i) => `<div class="item-child"><a href="/${label}/${i}">${label} page ${i}</a></div>`,
      ).join('');
    const header = `<div class="container-part-header"><a href="/sale">Holiday pricing on standing desks!</a>${links(3, 'Help')}</div>`;
    const spinner =
      '<div class="spin" aria-busy="true" aria-live="polite"><i></i><div class="spin-text">Loading</div></div>';
    const sortBar =
      '<div class="sort"><span>Sort :</span><span>Relevance</span><span>Latest</span><span>Top sales</span></div>';
    const namedFooter = `<div class="container-part-footer"><div class="site-fotter">${links(14, 'About')}</div></div>`;
    const page = (inner: string): string => `<html><body><div id="root">${inner}</div></body></html>`;

    it('gives no content when only its header and footer, drawn as named divs, have text', () => {
      expect(text(page(`${header}<h1></h1>${sortBar}${spinner}${namedFooter}`))).toBe('');
    });

    it('keeps the content beside a spinner (a widget still loading)', () => {
      const body = `<p>${'This desk converter lifts any desk to standing height in seconds, with a gas spring. '.repeat(3)}</p>`;
      expect(text(page(`${header}${body}${spinner}${namedFooter}`))).toContain('This desk converter lifts');
    });

    it('does not take a frame around the busy slot for a header ("frame with_header")', () => {
      const body = `<p>${'A short course outline, shown before the rest loads: twelve chapters, labs and a quiz. '.repeat(2)}</p>`;
      const out = text(page(`<div class="frame with_header">${links(3, 'Store')}${body}${spinner}</div>`));
      expect(out).toContain('A short course outline');
    });
  });
});
