import { processHtml } from '../index';

const URL = 'https://shop.example.com/collections/running-shoes';

// A collection whose cards print their fields as a description list, the same terms on every
// card; the buying guide's own description list names each term once.
const card = (i: number): string =>
  `<li class="product-card"><a href="/products/shoe-${i}"><dl><dt>Brand name</dt><dd>Maker ${i}</dd><dt>Product name</dt><dd>Trail runner ${i}</dd><dt>Price</dt><dd>$${90 + i}.00</dd></dl></a></li>`;

const page = `<html><head><title>Running shoes | Example Sports</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/collections/shoes">Shoes</a></nav></header>
  <main><h1>Running shoes</h1><p>Road and trail running shoes for every distance, tested by our staff.</p>
    <ul class="product-grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul>
    <dl class="guide"><dt>Heel drop</dt><dd>The height difference between heel and toe, in millimetres.</dd></dl></main>
  <footer><p>Example Sports, all rights reserved</p></footer></body></html>`;

describe('field names on the cards of a collection', () => {
  const out = processHtml(page, { url: URL, formats: ['text'] });

  it('go when every card repeats them', () => {
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).not.toMatch(/^Brand name$/m);
    expect(out.text).not.toMatch(/^Product name$/m);
  });

  it('while the values and a term printed once stay', () => {
    for (const i of [0, 7]) {
      expect(out.text).toContain(`Maker ${i}`);
      expect(out.text).toContain(`Trail runner ${i}`);
    }
    expect(out.text).toContain('Heel drop');
  });
});
