import { processHtml } from '../index';

const URL = 'https://shop.example.com/collections/candles';
const card = (i: number): string =>
  `<li class="card"><a href="/products/candle-${i}"><h3>Beeswax candle ${i}</h3></a><span>$${12 + i}.00</span></li>`;
const offers = ['$40 USD', '$60 CAD', '65€', '$110 AUD', '480kr']
  .map(
    (o, i) =>
      `<p class="bar-msg" ${i > 0 ? 'hidden' : ''}>Free standard shipping on orders ${o} or more. For more information on shipping rates and timelines, please see our international page.</p>`,
  )
  .join('');

describe('a bar of shipping offers on a collection', () => {
  it('goes; the items stay', () => {
    const html = `<html><body><main><div class="announcement">${offers}</div><h1>Candles</h1>
      <ul class="grid">${Array.from({ length: 12 }, (_, i) => card(i)).join('')}</ul></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).toContain('Beeswax candle 3');
    expect(out.text).not.toContain('Free standard shipping');
  });

  it('stays when the shop mentions its offer once', () => {
    const html = `<html><body><main><h1>Candles</h1><p>Hand-poured in small batches. Get free shipping on orders over $50.</p>
      <ul class="grid">${Array.from({ length: 4 }, (_, i) => card(i)).join('')}</ul></main></body></html>`;
    expect(processHtml(html, { url: URL, formats: ['text'] }).text).toContain(
      'free shipping on orders over $50',
    );
  });
});
