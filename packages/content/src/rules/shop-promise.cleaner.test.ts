import { processHtml } from '../index';

const URL = 'https://shop.example.com/products/kettle';
const LD =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Pour-over kettle"}</script>';
const text = (html: string): string => processHtml(html, { url: URL, formats: ['text'] }).text;
const page = (body: string): string =>
  `<html><head><title>Pour-over kettle</title>${LD}</head><body><main><div class="product"><h1>Pour-over kettle</h1>
  <div class="price">$89.00</div><button class="add-to-cart">Add to cart</button>${body}
  <p>A gooseneck kettle with a thermometer in the lid and a counterweighted handle, for a slow and even pour.</p>
  <ul><li>Capacity: 1 litre</li><li>Stainless steel, induction ready</li></ul>
  <p>The spout is narrow enough to pour a thread of water and wide enough to fill a carafe quickly.</p></div></main></body></html>`;

describe("the shop's promise strip on a product page", () => {
  it('goes: free shipping, returns and warranty badges beside the buy button', () => {
    const strip = `<ul class="usp"><li>Free shipping on orders over $50</li><li>Free 30-day returns</li><li>2-year warranty</li></ul>`;
    const out = text(page(strip));
    expect(out).toContain('A gooseneck kettle with a thermometer');
    expect(out).toContain('Capacity: 1 litre');
    expect(out).not.toContain('Free 30-day returns');
    expect(out).not.toContain('2-year warranty');
  });

  it('goes in other languages too', () => {
    const strip = `<div class="reassurance"><div>Livraison gratuite dès 50 €</div><div>Retours gratuits sous 30 jours</div></div>`;
    expect(text(page(strip))).not.toContain('Retours gratuits');
  });

  it('stays when one line is a promise among facts of the product', () => {
    const facts = `<ul class="facts"><li>Free shipping on orders over $50</li><li>Brushed steel finish</li><li>Thermometer in the lid</li></ul>`;
    const out = text(page(facts));
    expect(out).toContain('Free shipping on orders over $50');
    expect(out).toContain('Brushed steel finish');
  });

  it('stays when the promises are sentences of a longer block (the shop terms as prose)', () => {
    const terms = `<div class="terms"><p>Free shipping on orders over $50 within the country.</p><p>Free 30-day returns.</p><p>${'Returns must be unused and in their original box, with the receipt, and are refunded to the card used for the order once we have inspected them. '.repeat(4)}</p></div>`;
    expect(text(page(terms))).toContain('Free 30-day returns');
  });
});

describe('the promise strip on a page that declares a product but reads as a collection', () => {
  it('goes too: a product page with a large grid of other products reads as a collection', () => {
    const card = (i: number): string =>
      `<li class="card"><a href="/products/kettle-${i}"><h3>Kettle ${i}</h3></a><span>$${40 + i}.00</span></li>`;
    const html = `<html><head><title>Pour-over kettle</title>${LD}</head><body><main><h1>Pour-over kettle</h1>
      <p>A gooseneck kettle with a thermometer in the lid and a counterweighted handle, for a slow and even pour.</p>
      <ul class="usp"><li>Free shipping on orders over $50</li><li>Free 30-day returns</li></ul>
      <ul class="grid">${Array.from({ length: 40 }, (_, i) => card(i)).join('')}</ul></main></body></html>`;
    const out = processHtml(html, { url: 'https://shop.example.com/collections/kettles', formats: ['text'] });
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).not.toContain('Free 30-day returns');
  });
});
