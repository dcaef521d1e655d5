import { processHtml } from '../index';

const URL = 'https://shop.example.com/products/tee';
const text = (html: string): string => processHtml(html, { url: URL, formats: ['text'] }).text;

const LD_PRODUCT =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Tee"}</script>';
const reviews = `<div id="reviews"><h2>Reviews</h2>${Array.from(
  { length: 8 },
  (_, i) =>
    `<div class="item"><p>Buyer ${i} writes that the tee fits well, washes fine, and keeps its colour.</p><span>Verified buyer</span></div>`,
).join('')}</div>`;
// a product described in a few lines: far less text than its reviews
const product =
  '<div class="product"><h1>Plain tee</h1><p>$22</p><p>A slim fit tee in soft cotton, made to layer or wear alone every day of the week.</p><ul><li>100% cotton</li><li>Machine washable at 30 degrees</li><li>Regular length</li></ul></div>';

describe('reviews beside a short product description', () => {
  it('drops the reviews even when the description is only a few lines', () => {
    const out = text(`<html><head>${LD_PRODUCT}</head><body><main>${product}${reviews}</main></body></html>`);
    expect(out).toContain('A slim fit tee in soft cotton');
    expect(out).not.toContain('Buyer 3 writes');
  });

  it('drops them on a page read as a product without declaring one (a cart button, a product path)', () => {
    const cart = '<button>Add to cart</button>';
    const out = text(`<html><body><main>${product}${cart}${reviews}</main></body></html>`);
    expect(
      processHtml(`<html><body><main>${product}${cart}</main></body></html>`, { url: URL }).metadata.pageType,
    ).toBe('product');
    expect(out).toContain('A slim fit tee in soft cotton');
    expect(out).not.toContain('Buyer 3 writes');
  });

  it('drops them when the product beside them is mostly links (its formats, sizes and seller)', () => {
    const buyBox = `<div class="buybox"><h1>Plain tee</h1><a href="/tee?s=s">Small, $22</a> <a href="/tee?s=m">Medium, $22</a> <a href="/tee?s=l">Large, $24</a> <a href="/tee?s=xl">Extra large, $24</a> <a href="/shop/basics">Sold by Basics Co.</a> <a href="/tee/formats">See all colours and sizes</a><p>Soft cotton, slim fit.</p></div>`;
    const out = text(`<html><head>${LD_PRODUCT}</head><body><main>${buyBox}${reviews}</main></body></html>`);
    expect(out).toContain('Soft cotton, slim fit.');
    expect(out).toContain('Medium, $22');
    expect(out).not.toContain('Buyer 3 writes');
  });

  it("keeps reviews that are the whole page (a page of a product's reviews)", () => {
    const out = text(`<html><head>${LD_PRODUCT}</head><body><main>${reviews}</main></body></html>`);
    expect(out).toContain('Buyer 3 writes');
  });
});

describe("a product's rating summary lines", () => {
  it('drop on a selling page; a sentence about reviews stays', () => {
    const summary = [
      '4.4 stars out of 1935 reviews',
      '4.8(333 reviews)',
      'Rated 4.4 out of 5 stars.',
      '1,935 ratings',
    ]
      .map((s) => `<div class="rating"><span class="stars"></span><span>${s}</span></div>`)
      .join('');
    const said = '<p>Over 1,900 reviews praise how quietly it runs and how easy the jar is to clean.</p>';
    const out = text(
      `<html><head>${LD_PRODUCT}</head><body><main>${product}${summary}${said}</main></body></html>`,
    );
    expect(out).toContain('A slim fit tee in soft cotton');
    expect(out).not.toContain('1935 reviews');
    expect(out).not.toContain('333 reviews');
    expect(out).not.toContain('out of 5 stars');
    expect(out).not.toContain('1,935 ratings');
    expect(out).toContain('Over 1,900 reviews praise');
  });
});
