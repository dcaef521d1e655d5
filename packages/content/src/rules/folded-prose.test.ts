import { processHtml } from '../index';

const URL = 'https://shop.example.com/c/hiking-boots';

// A shop's category page: a short intro, a grid of priced cards, and a buying guide folded under
// the grid into an accordion whose panels are hidden until a click. The guide holds more prose
// than the intro: shown and counted, it would make the page an article and drop the items.
const card = (i: number): string =>
  `<li class="product-tile"><a href="/p/boot-${i}"><h3>Trail boot model ${i}</h3></a><span class="price">$${120 + i}.00</span></li>`;
const fold = (i: number, text: string): string => `<div class="accordion-item">
  <button aria-expanded="false" aria-controls="guide-${i}">Guide part ${i}</button>
  <div id="guide-${i}" class="accordion-panel" aria-hidden="true"><p>${text}</p></div></div>`;

const guide = [
  'Day hikes on good trails need a light shoe with a flexible sole; a boot only adds weight you carry all day.',
  'Backpacking with a heavy load calls for a stiffer midsole and a higher cuff that holds the ankle on rough ground.',
  'Fit the boots in the afternoon, when feet are at their largest, and wear the socks you will hike in.',
  'Waterproof membranes keep feet dry in wet grass and shallow streams but run warmer on long summer days.',
];

const page = `<html><head><title>Hiking boots | Example Outfitters</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/c/shoes">Shoes</a> <a href="/help">Help</a></nav></header>
  <main>
    <h1>Hiking boots</h1>
    <p>Boots and shoes for day hikes and long trips, from light trail shoes to stiff mountain boots.</p>
    <ul class="product-grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul>
    <section class="buying-guide"><h2>How to choose hiking boots</h2>
      <div class="accordion">${guide.map((t, i) => fold(i, t)).join('')}</div></section>
  </main>
  <footer><p>Example Outfitters, all rights reserved</p></footer></body></html>`;

describe('a buying guide folded under the items of a collection page', () => {
  const out = processHtml(page, { url: URL, formats: ['text'] });

  it('is shown', () => {
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).toContain('Day hikes on good trails');
    expect(out.text).toContain('Waterproof membranes keep feet dry');
  });

  it('does not make the page an article: the items stay', () => {
    for (const i of [0, 7]) expect(out.text).toContain(`Trail boot model ${i}`);
    expect(out.text).toContain('$127.00');
    expect(out.text).not.toContain('all rights reserved');
  });
});
