import { processHtml } from '../index';

const URL = 'https://shop.example.com/collections/hakuro';

// A brand's collection page: a hero block with the heading and a line of introduction, the
// brand's story in a section of its own, then its products. The story is the page's longest
// prose; the hero above it is the page's opening and belongs with it.
const card = (i: number): string =>
  `<div class="product-card"><a href="/p/sake-${i}"><h3>Hakuro junmai ${i}</h3></a><span class="price">$${20 + i}.00</span></div>`;
const story = (i: number): string =>
  `<p>Paragraph ${i} of the story: the brewery has pressed rice wine in the same valley for nearly three centuries, with water from the mountain springs above the town, and its masters still taste every batch before it is bottled.</p>`;

const page = (hero: string): string => `<html><head><title>Hakuro | Example Imports</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/brands">Brands</a> <a href="/shop">Shop</a></nav></header>
  <div class="site-content">
    ${hero}
    <section class="brand-story"><h2>Our story</h2>${[1, 2, 3, 4].map(story).join('')}</section>
    <section class="brand-products"><h2>The range</h2><div class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</div></section>
  </div>
  <footer><p>Example Imports, all rights reserved</p></footer></body></html>`;

const hero = `<section class="hero"><div class="hero-copy"><h1>Hakuro</h1><h2>The valley's oldest brewery</h2>
  <p>Since 1747 Hakuro has brewed its rice wine by the river in the north of the island, one small batch at a time.</p></div></section>`;

describe("a collection page's heading and intro above its content", () => {
  it('open the content', () => {
    const out = processHtml(page(hero), { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).toContain('Since 1747 Hakuro has brewed its rice wine');
    expect(out.text.indexOf('Since 1747')).toBeLessThan(out.text.indexOf('Paragraph 1 of the story'));
    expect(out.text).not.toContain('all rights reserved');
  });

  it('unless the block is a menu of links', () => {
    const menu = `<section class="hero"><h1>Hakuro</h1><p><a href="/brands/hakuro/junmai">Junmai</a> <a href="/brands/hakuro/ginjo">Ginjo</a> <a href="/brands/hakuro/daiginjo">Daiginjo and the other premium grades of the brewery</a></p></section>`;
    const out = processHtml(page(menu), { url: URL, formats: ['text'] });
    expect(out.text).not.toContain('Daiginjo and the other premium grades');
  });
});
