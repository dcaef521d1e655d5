import { processHtml } from '../index';

const URL = 'https://shop.example.com/collections/laptops';
const card = (i: number): string =>
  `<li class="card"><a href="/products/laptop-${i}"><h3>Notebook ${i} Pro</h3></a><span>From $${900 + i}.00 *</span></li>`;
const notes = Array.from(
  { length: 6 },
  (_, i) =>
    `<li>* Offer ${i}: financing is available to qualified customers subject to credit approval, monthly pricing requires a twelve-month plan at zero percent, and taxes and shipping are not included in the price shown.</li>`,
).join('');

describe('a shop page closing with legal footnotes', () => {
  it('keeps the items, not the small print', () => {
    const html = `<html><body><main><h1>Laptops</h1>
      <ul class="grid">${Array.from({ length: 12 }, (_, i) => card(i)).join('')}</ul>
      <div class="legal-footnotes"><ol>${notes}</ol></div></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).toContain('Notebook 11 Pro');
    expect(out.text).not.toContain('credit approval');
  });
});
