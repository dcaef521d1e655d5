import { computeStats } from '../dom/content-stats';
import { findFirst, parseHtml } from '../dom/dom.util';
import { processHtml } from '../index';
import { findPricedGrid } from './priced-grid';

const URL = 'https://shop.example.com/collections/wallets';
const card = (i: number): string =>
  `<article class="tile"><a href="/products/w${i}"><h3>Slim wallet model ${i}</h3></a><span>$${40 + i}.00</span></article>`;
const tiles = (n: number): string => Array.from({ length: n }, (_, i) => card(i)).join('');

describe('priced item grid of collection pages', () => {
  it('survives chrome removal when its wrapper is named after the pagination around it', () => {
    // the wrapper holds under 40% of the page, and "pagination" names chrome everywhere else
    const stores = Array.from(
      { length: 16 },
      (_, i) => `<div>Store number ${i} on Main Street opens Monday to Saturday</div>`,
    ).join('');
    const html = `<html><body><header><nav><a href="/">Home</a> <a href="/about">About us</a></nav></header>
      <main><h1>Wallets</h1>
      <div class="collection-pagination-wrapper"><div class="grid">${tiles(8)}</div><a href="?page=2">Next page</a></div>
      <div class="stores">${stores}</div></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('collection');
    for (const i of [0, 4, 7]) expect(out.text).toContain(`Slim wallet model ${i}`);
  });

  it("survives article mode's conditional cleaning when the winner holds it beside the prose", () => {
    // link-dense <div> cards inside the chosen node would go as boilerplate
    const cards = Array.from(
      { length: 8 },
      (_, i) =>
        `<div class="card"><a href="/products/w${i}">Slim wallet model ${i}</a> <span>$${40 + i}.00</span></div>`,
    ).join('');
    const para = (i: number): string =>
      `<p>Paragraph ${i} about wallets: a slim wallet of aluminium or carbon holds up to twelve cards, some folded cash and a key, and it stays flat in a front pocket, even in tight jeans, for years of daily use.</p>`;
    const html = `<html><body><header><nav><a href="/">Home</a> <a href="/about">About us</a></nav></header>
      <div class="page"><h1>Wallets</h1>${[1, 2, 3, 4, 5].map(para).join('')}<div class="grid">${cards}</div></div>
      <footer>Footer text, all rights reserved</footer></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).toContain('Paragraph 1 about wallets');
    for (const i of [0, 7]) expect(out.text).toContain(`Slim wallet model ${i}`);
  });

  it('is the largest group of short linked cards with a price', () => {
    const links = Array.from({ length: 10 }, (_, i) => `<li><a href="/c/${i}">Category ${i}</a></li>`).join(
      '',
    );
    const html = `<html><body><ul>${links}</ul><div>${tiles(5)}</div></body></html>`;
    const body = findFirst(parseHtml(html), 'body')!;
    const grid = findPricedGrid(body, computeStats(body));
    expect(grid?.cards).toHaveLength(5);
    expect(grid?.parent.name).toBe('div');
  });
});
