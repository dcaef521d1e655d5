import { processHtml } from '../index';

const URL = 'https://shop.example.com/collections/kettles';

// A collection whose cards show drawn stars and, under them, a count of reviews on a line of
// its own. The intro's sentence about reviews is the page's own text.
const card = (i: number): string =>
  `<li class="product-card"><a href="/products/kettle-${i}"><h3>Kettle model ${i}</h3></a><span class="price">$${40 + i}.00</span><div class="rating"><span class="stars" aria-hidden="true"></span><span class="count">${10 + i} reviews</span></div></li>`;

const page = `<html><head><title>Kettles | Example Kitchen</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/collections/kitchen">Kitchen</a></nav></header>
  <main><h1>Kettles</h1><p>Every kettle here has at least 10 reviews from customers who use it daily.</p>
    <ul class="product-grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul></main>
  <footer><p>Example Kitchen, all rights reserved</p></footer></body></html>`;

describe('review counts under the cards of a collection', () => {
  const out = processHtml(page, { url: URL, formats: ['text'] });

  it('go when several cards show one', () => {
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).not.toMatch(/^\d+ reviews$/m);
  });

  it('while the items and a sentence about reviews stay', () => {
    for (const i of [0, 7]) expect(out.text).toContain(`Kettle model ${i}`);
    expect(out.text).toContain('at least 10 reviews from customers');
  });
});
