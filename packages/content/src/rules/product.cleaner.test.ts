import { processHtml } from '../index';
import { PRICE } from './product.cleaner';

const URL = 'https://shop.example.com/products/kettle';
const prose = (n: number, word: string): string =>
  Array.from(
    { length: n },
    (_, i) => `Sentence ${i} about the ${word}, with commas, clauses, and enough words to count.`,
  ).join(' ');
const text = (html: string): string => processHtml(html, { url: URL, formats: ['text'] }).text;

const LD_PRODUCT =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Kettle"}</script>';
const page = (head: string, body: string): string =>
  `<html><head><title>Kettle</title>${head}</head><body><main>${body}</main></body></html>`;
const reviews = (n: number): string =>
  `<section class="product-reviews"><h2>Customer reviews</h2>${Array.from(
    { length: n },
    (_, i) =>
      `<div class="review"><p>Reviewer ${i} says the kettle is great, boils fast, and looks fine on the counter.</p></div>`,
  ).join('')}</section>`;
const description = `<div class="description"><h1>Steel kettle</h1><p>${prose(5, 'kettle')}</p>
  <ul><li>Capacity: 1.7 l</li><li>Power: 2200 W</li></ul></div>`;

describe('product pages', () => {
  it('drops customer reviews under a declared product, like comments under an article', () => {
    const out = text(page(LD_PRODUCT, description + reviews(6)));
    expect(out).toContain('Sentence 2 about the kettle');
    expect(out).toContain('Capacity: 1.7 l');
    expect(out).not.toContain('Reviewer 3 says');
  });

  it('recognises products declared by microdata or og:type too', () => {
    const micro = `<html><body><main><div itemscope itemtype="https://schema.org/Product">${description}</div>${reviews(6)}</main></body></html>`;
    expect(text(micro)).not.toContain('Reviewer 3 says');
    const og = page('<meta property="og:type" content="product">', description + reviews(6));
    expect(text(og)).not.toContain('Reviewer 3 says');
  });

  it('keeps reviews on pages that are not product pages (review sites, testimonials)', () => {
    const out = text(page('', description + reviews(6)));
    expect(out).toContain('Reviewer 3 says');
  });

  it('keeps a short rating summary named "reviews"', () => {
    const summary =
      '<p class="user-reviews">Rated 4.5 out of 5 stars in 1,024 reviews from verified buyers.</p>';
    expect(text(page(LD_PRODUCT, description + summary))).toContain('1,024 reviews');
  });

  it('drops grids of other priced products (related, also bought) from a product page', () => {
    const card = (i: number): string =>
      `<li class="card"><a href="/products/other-${i}">Other kettle ${i}</a><span class="price">$${20 + i}.99</span></li>`;
    const related = `<div class="upsell"><h2>You may also like</h2><ul>${[1, 2, 3, 4, 5].map(card).join('')}</ul></div>`;
    const out = text(page(LD_PRODUCT, description + related));
    expect(out).toContain('Sentence 2 about the kettle');
    expect(out).not.toContain('Other kettle 3');
    expect(out).not.toContain('You may also like');
  });

  it('keeps priced cards that make up the page (a category page declaring its items)', () => {
    const card = (i: number): string =>
      `<li class="card"><a href="/products/kettle-${i}">Kettle model ${i} in brushed steel</a><span>€${30 + i},00</span></li>`;
    const grid = `<h1>Kettles</h1><ul>${Array.from({ length: 12 }, (_, i) => card(i)).join('')}</ul>`;
    const out = text(page(LD_PRODUCT, grid));
    expect(out).toContain('Kettle model 7 in brushed steel');
  });

  it('drops them from a page read as a product without declaring one, while they are a third of it or less', () => {
    const card = (i: number, name: string): string =>
      `<li class="card"><a href="/products/other-${i}">${name} ${i}</a><span class="price">$${20 + i}.99</span></li>`;
    const grid = (name: string) =>
      `<div><h2>Related</h2><ul>${[1, 2, 3, 4, 5].map((i) => card(i, name)).join('')}</ul></div>`;
    const buy = '<p class="price">$49.00</p><button>Add to cart</button>';
    const small = page('', description + buy + grid('Other kettle'));
    expect(processHtml(small, { url: URL }).metadata.pageType).toBe('product');
    expect(text(small)).toContain('Sentence 2 about the kettle');
    expect(text(small)).not.toContain('Other kettle 3');
    // cards with long names outweigh the short description: without a declaration, the grid may be the page
    const long = 'Other kettle in brushed steel with a glass window, a blue light and a keep-warm mode';
    const short = `<div class="description"><h1>Steel kettle</h1><p>${prose(6, 'kettle')}</p></div>`;
    const big = page('', short + buy + grid(long));
    expect(processHtml(big, { url: URL }).metadata.pageType).toBe('product');
    expect(text(big)).toContain(`${long} 3`);
  });

  it('keeps priced grids on pages that are not product pages', () => {
    const card = (i: number): string =>
      `<li><a href="/plans/${i}">Plan ${i}</a><span>$${10 * i}/month</span></li>`;
    const body = `<p>${prose(4, 'pricing')}</p><ul>${[1, 2, 3, 4].map(card).join('')}</ul>`;
    expect(text(page('', body))).toContain('Plan 3');
  });
});

describe('forum signatures', () => {
  const post = (i: number, sig: string): string =>
    `<article class="message"><div class="message-body"><p>${prose(2, `topic${i}`)}</p></div>${sig}</article>`;

  it('drops the signature repeated under every post, even when named after the post', () => {
    const sig = (i: number): string =>
      `<aside class="message-signature"><div>My rig: Ryzen ${i}, 32 GB RAM, lots of fans</div></aside>`;
    const out = text(
      `<html><body><main>${[1, 2, 3].map((i) => post(i, sig(i))).join('')}</main></body></html>`,
    );
    expect(out).toContain('Sentence 1 about the topic2');
    expect(out).not.toContain('My rig');
  });

  it('keeps table rows and links named after a signature feature', () => {
    const table = `<table><tr class="digital-signature-row"><td>Digital signature</td><td>Included in every plan</td></tr></table>`;
    const out = text(`<html><body><main><p>${prose(4, 'plans')}</p>${table}</main></body></html>`);
    expect(out).toContain('Included in every plan');
  });
});

describe("a product's declared description", () => {
  const desc =
    'The Harbour Jacket keeps wind and rain out on long coastal walks, with taped seams, a stowaway hood and two zipped pockets.';
  // Shops put markup and entities inside JSON-LD strings.
  const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Harbour Jacket","description":"<p>${desc.replace('rain', 'rain &amp; spray')}</p>","offers":{"@type":"Offer","price":"120.00","priceCurrency":"EUR"}}</script>`;
  const page = (tab: string) =>
    `<html><head><title>Harbour Jacket</title>${ld}</head><body><nav><a href="/">Shop</a></nav><main><h1>Harbour Jacket</h1><p class="price">€120.00</p><button>Add to cart</button>${tab}</main><footer>© Shop</footer></body></html>`;
  const markdown = (html: string) =>
    processHtml(html, { url: 'https://shop.test/products/harbour-jacket', formats: ['markdown'] }).markdown;
  const shown = 'The Harbour Jacket keeps wind and rain & spray out on long coastal walks';

  it('comes back when the page carries it in a sheet the extraction drops', () => {
    // A "Description" sheet: a dialog the cleaners drop with the other overlays.
    const sheet = `<button>Description</button><aside role="dialog"><h5>Description</h5><p>${desc.replace('rain', 'rain &amp; spray')}</p></aside>`;
    const md = markdown(page(sheet));
    expect(md).toContain(shown);
    expect(md.split('Harbour Jacket keeps').length).toBe(2); // once
  });

  it('is added to a thin page that shows a name, a price and a cart button only', () => {
    const md = markdown(page(''));
    expect(md).toContain(shown);
    expect(md).toContain('€120.00');
  });

  it('is not added when the page never shows it but has text of its own, nor twice when the content has it', () => {
    const features = `<h2>Features</h2><ul>${[
      'Seams taped against driving rain on every panel and pocket',
      'Hood that rolls into the collar and stays put in strong wind',
      'Two hand pockets with water-resistant zips and a soft lining',
      'Drop hem at the back so it covers you when you sit on a wet bench',
      'Cuffs with hook-and-loop tabs that close over gloves',
      'Reflective trim at the shoulders for walks after dark',
      'Recycled polyester shell with a fluorocarbon-free finish',
      'Packs into its own chest pocket, with a loop to clip it to a bag',
      'Machine washable at thirty degrees, tumble dry low to restore the finish',
      'Sizes from XS to XXL, with a longer cut for tall walkers in every size',
    ]
      .map((f) => `<li>${f}</li>`)
      .join('')}</ul>`;
    const own = markdown(page(features));
    expect(own).toContain('stays put in strong wind');
    expect(own).not.toContain('Harbour Jacket keeps');
    const visible = markdown(page(`<p>${desc.replace('rain', 'rain &amp; spray')}</p>`));
    expect(visible.split('Harbour Jacket keeps').length).toBe(2);
  });
});

describe('what reads as a price', () => {
  it('a currency sign or code before or after the number, the code glued to it too', () => {
    for (const p of [
      '$19.99',
      '€ 5',
      '19,99 €',
      'EUR 22.37',
      'EUR22.37',
      '4.6EUR22.37',
      'RRP:EUR34.42',
      '120 kr',
      '120kr',
      '35 zł',
    ])
      expect(PRICE.test(p)).toBe(true);
  });

  it('not a code inside a word, nor a number alone', () => {
    for (const t of ['NEUR5 receptor', 'USB3 port', 'model 2200', 'CADDY4 kit'])
      expect(PRICE.test(t)).toBe(false);
  });
});
