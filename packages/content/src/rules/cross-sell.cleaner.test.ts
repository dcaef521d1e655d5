import { processHtml } from '../index';

const URL = 'https://shop.example.com/products/lamp';
const text = (html: string): string => processHtml(html, { url: URL, formats: ['text'] }).text;
const LD =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Desk lamp"}</script>';
const product = `<div class="product"><h1>Brass desk lamp</h1><p>A brass desk lamp with a weighted base, a linen shade and a dimmer on the cord, made to light a desk without glare.</p>
  <ul><li>Height: 45 cm</li><li>Bulb: E27, up to 40 W</li><li>Cable: 1.8 m, braided</li></ul>
  <p>Each lamp is assembled and tested by hand before it ships, and comes with a five-year warranty.</p>
  <p>The shade is washable linen on a steel frame; the base is solid brass, turned and polished, with a felt pad that keeps it from marking the desk.</p></div>`;
// carousel tiles: unpriced, unlinked (filled by script), a title bar around the heading
const carousel = (head: string): string =>
  `<section><div class="bar"><div><h2>${head}</h2></div></div><ul>${[
    'Floor lamp Arc',
    'Wall sconce Duo',
    'Pendant Globe',
    'Reading lamp Flex',
  ]
    .map((n) => `<li><div>${n}</div><div>Sponsored tile for ${n}, a lamp from another maker.</div></li>`)
    .join('')}</ul></section>`;
const page = (head: string, body: string): string =>
  `<html><head><title>Brass desk lamp</title>${head}</head><body><main>${body}</main></body></html>`;

describe('cross-sell sections on product pages', () => {
  it('drops a section opened by a cross-sell heading under the product, title bar and all', () => {
    for (const head of ['Similar items', 'Customers who viewed this item also viewed', 'Recently viewed']) {
      const out = text(page(LD, product + carousel(head)));
      expect(out).toContain('A brass desk lamp with a weighted base');
      expect(out).toContain('Height: 45 cm');
      expect(out).not.toContain('Sponsored tile for Pendant Globe');
      expect(out).not.toContain(head);
    }
  });

  it('drops add-on pickers, accessory lists and testimonials under the product', () => {
    for (const head of [
      'Choose your add-ons',
      'Accessories',
      'Frequently purchased with',
      'Complete your order',
      'Customer testimonials',
    ]) {
      const out = text(page(LD, product + carousel(head)));
      expect(out).toContain('A brass desk lamp with a weighted base');
      expect(out).not.toContain('Sponsored tile for Pendant Globe');
    }
  });

  it("drops the shop's delivery and returns terms under the product", () => {
    const terms = `<div class="policies"><h3>Shipping &amp; returns</h3><p>Orders ship within two working days from our warehouse. Returns are accepted within thirty days of delivery, unused and in the original packaging.</p></div>`;
    const out = text(page(LD, product + terms));
    expect(out).toContain('A brass desk lamp with a weighted base');
    expect(out).not.toContain('Orders ship within two working days');
  });

  it("drops the shop's disclaimer under the product", () => {
    const note = `<div class="collapse-item"><h3>Disclaimer</h3><p>While we strive to ensure the accuracy of our product images and information, manufacturing changes to packaging or ingredients may be pending on our site.</p></div>`;
    const out = text(page(LD, product + note));
    expect(out).toContain('A brass desk lamp with a weighted base');
    expect(out).not.toContain('manufacturing changes to packaging');
  });

  it('reads the label of a folded panel as its heading', () => {
    const fold = `<details class="accordion"><summary>Delivery &amp; Returns</summary><p>Standard delivery is free on orders over $65 and arrives in three to six business days; returns are accepted within thirty days.</p></details>`;
    const out = text(page(LD, product + fold));
    expect(out).toContain('A brass desk lamp with a weighted base');
    expect(out).not.toContain('Standard delivery is free on orders');
  });

  it('reads a paragraph set wholly in bold as a heading, and not a paragraph with a bold word', () => {
    const terms = `<div class="panel"><p><strong>Shipping &amp; Returns</strong></p><p>Standard delivery is free on orders over $65 and arrives in three to six business days; returns are accepted within thirty days.</p></div>`;
    const out = text(page(LD, product + terms));
    expect(out).toContain('A brass desk lamp with a weighted base');
    expect(out).not.toContain('Standard delivery is free on orders');
    const note = `<div class="panel"><p><strong>Shipping</strong> is by courier, in the lamp's own padded box with the shade packed apart from the base.</p><p>Fit the shade before switching the lamp on.</p></div>`;
    expect(text(page(LD, product + note))).toContain('Fit the shade before switching');
  });

  it('reads a block named as a title as the heading, and a few words may lead into the phrase', () => {
    const titled = (head: string): string =>
      carousel('x').replace(
        '<div class="bar"><div><h2>x</h2></div></div>',
        `<p class="recommendations-title">${head}</p>`,
      );
    for (const head of [
      'Frequently purchased with',
      'Your recently viewed items',
      'Free shipping & returns',
    ]) {
      const out = text(page(LD, product + titled(head)));
      expect(out).toContain('A brass desk lamp with a weighted base');
      expect(out).not.toContain('Sponsored tile for Pendant Globe');
    }
    const out = text(page(LD, product + carousel('This is what customers who viewed this product bought')));
    expect(out).not.toContain('Sponsored tile for Pendant Globe');
  });

  it('keeps a tab bar whose labels are title blocks (a label is not the section)', () => {
    const tabs = `<div class="tabs"><div class="tab-title">Shipping &amp; returns</div><div class="tab-title">Description</div><div class="tab-title">Reviews</div></div>`;
    const out = text(page(LD, product + tabs));
    expect(out).toContain('Shipping & returns');
    expect(out).toContain('Reviews');
  });

  it('keeps such sections on pages that are not product pages', () => {
    const out = text(page('', `<article>${product}</article>${carousel('Similar items')}`));
    expect(out).toContain('A brass desk lamp');
    expect(out).toContain('Sponsored tile for Pendant Globe');
  });

  it('keeps a section that comes before the product (it may be the page)', () => {
    const out = text(page(LD, carousel('Similar items') + product));
    expect(out).toContain('Sponsored tile for Pendant Globe');
  });
});
