import { processHtml } from '../index';

const URL = 'https://shop.example.com/collections/kettles';

// A collection whose grid sits under a bar that counts the results shown and names their order.
// The heading's own total of items is the page's text.
const card = (i: number): string =>
  `<li class="product-card"><a href="/products/kettle-${i}"><h3>Kettle model ${i}</h3></a><span class="price">$${40 + i}.00</span></li>`;

const page = `<html><head><title>Kettles | Example Kitchen</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/collections/kitchen">Kitchen</a></nav></header>
  <main><h1>Kettles</h1><p>Electric and stovetop kettles for every kitchen, chosen by our team.</p>
    <p class="total">48 items</p>
    <div class="grid-head"><p>Showing 1–8 of 48 products</p><p>Sort: Best match</p></div>
    <div class="grid-foot"><span>1-8 items of 48</span></div>
    <ul class="product-grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul></main>
  <footer><p>Example Kitchen, all rights reserved</p></footer></body></html>`;

describe('the results bar above the grid of a collection', () => {
  const out = processHtml(page, { url: URL, formats: ['text'] });

  it('goes: the count of results shown and the sort order', () => {
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).not.toContain('Showing 1–8 of 48');
    expect(out.text).not.toContain('Sort: Best match');
    expect(out.text).not.toContain('1-8 items of 48');
  });

  it('while the items, the intro and a bare total stay', () => {
    for (const i of [0, 7]) expect(out.text).toContain(`Kettle model ${i}`);
    expect(out.text).toContain('chosen by our team');
    expect(out.text).toContain('48 items');
  });
});
