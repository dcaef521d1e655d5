import { computeStats } from '../dom/content-stats';
import { findFirst, parseHtml } from '../dom/dom.util';
import { processHtml } from '../index';
import { findItemGrid } from './item-grid';

const URL = 'https://shop.example.com/collections/wallets';
const card = (i: number): string =>
  `<li class="card"><a href="/products/w${i}"><h3>Slim wallet model ${i}</h3><span>$${40 + i}.00</span></a></li>`;
const blurb =
  '<div class="intro"><p>Wallets made of aluminium, carbon and titanium, built to carry cards and cash.</p></div>';

describe('item grid of listing and collection pages', () => {
  it('keeps link-only product cards beside a short intro blurb', () => {
    const html = `<html><body><header><nav><a href="/">Home</a> <a href="/about">About us</a></nav></header>
      <div class="page"><h1>Wallets</h1>${blurb}
      <div class="grid"><ul>${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul></div></div>
      <footer>Footer text, all rights reserved</footer></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('collection');
    for (const i of [0, 4, 7]) expect(out.text).toContain(`Slim wallet model ${i}`);
    expect(out.text).toContain('Wallets made of aluminium');
    expect(out.text).not.toContain('Footer text');
  });

  it('does not take a header or navigation menu for the items', () => {
    const menu = Array.from(
      { length: 12 },
      (_, i) => `<li><a href="/c/${i}">Menu category number ${i}</a></li>`,
    );
    const html = `<html><body><header><ul>${menu.join('')}</ul></header>
      <main><ul>${Array.from({ length: 5 }, (_, i) => card(i)).join('')}</ul></main></body></html>`;
    const body = findFirst(parseHtml(html), 'body')!;
    const grid = findItemGrid(body, computeStats(body), 0.1);
    expect(grid?.items).toHaveLength(5);
    expect(grid?.parent.parent).toMatchObject({ name: 'main' });
  });
});
