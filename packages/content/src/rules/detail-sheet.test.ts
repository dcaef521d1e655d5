import { processHtml } from '../index';

const URL = 'https://shop.example.com/products/oak-shelf';
const LD_PRODUCT =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Oak shelf","offers":{"@type":"Offer","price":"89.00","priceCurrency":"EUR"}}</script>';

// A product page whose details open in a sheet over the page (a button, then a modal), beside a
// sign-up modal of the shop.
const page = (sheetClass: string): string => `<html><head><title>Oak shelf</title>${LD_PRODUCT}</head><body>
  <header><nav><a href="/">Home</a> <a href="/shelves">Shelves</a></nav></header>
  <main><div class="product-page">
    <h1>Oak shelf</h1><div class="price">€89.00</div>
    <p>A solid oak shelf for books and plants, oiled by hand in our workshop. It hangs on two hidden
    brackets, so nothing shows under the board, and it comes in three lengths for alcoves, hallways and
    the wall above a desk. Each shelf ships flat in a recycled box with the brackets, the screws and a
    paper template for the holes.</p>
    <p>Oak darkens to a honey tone over the first months in daylight; the oil we use keeps the surface
    matt and lets you sand out a mark and oil it again instead of replacing the shelf. Pair it with
    our oak hooks or the matching picture ledge for a wall that looks planned rather than filled.</p>
    <button class="add-to-cart">Add to cart</button>
    <button aria-haspopup="dialog">Product details</button>
    <div class="${sheetClass}"><div class="${sheetClass}__body">
      <p>The shelf is cut from one board of European oak, so every piece shows its own grain and knots.</p>
      <p>Width 80 cm, depth 25 cm, carries up to 20 kg when fixed to a solid wall with the screws supplied.</p>
      <p>Designer: Ann Example. Care: wipe with a damp cloth, oil once a year.</p>
    </div></div>
    <div class="newsletter-modal"><p>Get 10% off your first order when you join our list of shelf lovers today.</p></div>
  </div></main>
  <footer><p>Example Shelves, all rights reserved</p></footer></body></html>`;

describe('a product details sheet (modal, drawer, popover) over a product page', () => {
  it('is the product’s text: its description stays', () => {
    for (const cls of ['product-details-modal', 'specifications-drawer', 'product-info-popover']) {
      const out = processHtml(page(cls), { url: URL, formats: ['text'] });
      expect(out.metadata.pageType).toBe('product');
      expect(out.text).toContain('cut from one board of European oak');
      expect(out.text).toContain('Width 80 cm, depth 25 cm');
    }
  });

  it('while other modals still go, and so does a sheet not named for product text', () => {
    const out = processHtml(page('product-details-modal'), { url: URL, formats: ['text'] });
    expect(out.text).not.toContain('join our list of shelf lovers');
    for (const cls of ['size-chart-modal', 'shipping-popover']) {
      const other = processHtml(page(cls), { url: URL, formats: ['text'] });
      expect(other.text).not.toContain('cut from one board of European oak');
    }
  });
});
