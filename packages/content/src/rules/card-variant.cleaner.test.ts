import { processHtml } from '../index';

const URL = 'https://store.example.org/c/rain-jackets';

// A collection whose cards each show colour swatches and, under them, how many colours there
// are, or the price range of the other versions. The intro names colours in a sentence.
const card = (i: number): string =>
  `<div class="tile"><a href="/p/jacket-${i}"><h2 class="tile-title">Rain jacket ${i}</h2></a>` +
  `<div class="tile-price">€${90 + i},00</div><ul class="swatches" aria-hidden="true"><li></li><li></li></ul>` +
  `<div class="tile-colors">${i % 2 ? `${i + 2} colours` : `More options from €${80 + i},00 – €${120 + i},00`}</div>` +
  `<div class="tile-color-name">${i % 3 ? 'Navy' : 'Black'}</div></div>`;

const page = `<html><head><title>Rain jackets – Example Outdoor</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/c/jackets">Jackets</a></nav></header>
  <main><h1>Rain jackets</h1><p>Our rain jackets come in 5 colours, from black to a bright yellow you can be seen in.</p>
    <section class="tiles">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</section></main>
  <footer><p>Example Outdoor, all rights reserved</p></footer></body></html>`;

describe('variant counts under the cards of a collection', () => {
  const out = processHtml(page, { url: URL, formats: ['text'] });

  it('go when several cards show one', () => {
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).not.toMatch(/^\d+ colours$/m);
    expect(out.text).not.toContain('More options from');
  });

  it('while the items, their colour names and a sentence about colours stay', () => {
    for (const i of [0, 7]) expect(out.text).toContain(`Rain jacket ${i}`);
    expect(out.text).toContain('€97,00');
    expect(out.text).toMatch(/^Navy$/m);
    expect(out.text).toContain('come in 5 colours, from black');
  });
});
