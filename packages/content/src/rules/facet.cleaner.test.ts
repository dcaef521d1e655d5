import { processHtml } from '../index';

const URL = 'https://shop.example.com/collections/wallets';
const card = (i: number): string =>
  `<li class="card"><a href="/products/w${i}"><h3>Slim wallet model ${i}</h3><span>$${40 + i}.00</span></a></li>`;
// facet values as links with counts, the usual markup of shop platforms' filter panels
const facet = (name: string, values: string[]): string =>
  `<div class="facet-group"><h4>${name}</h4><ul>${values
    .map((v) => `<li><a href="?${name}=${v}">${v}</a> <span>(12 products)</span></li>`)
    .join('')}</ul></div>`;

describe('facet and filter panels of listing and collection pages', () => {
  it('are dropped, the items and the intro stay', () => {
    const html = `<html><body><div class="page"><h1>Wallets</h1>
      <div class="intro"><p>Wallets made of aluminium, carbon and titanium, built to carry cards and cash.</p></div>
      <div class="collection-filters">${facet('Material', ['Aluminium', 'Carbon', 'Titanium'])}${facet('Colour', ['Gunmetal', 'Navy'])}</div>
      <ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul></div></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('collection');
    for (const i of [0, 7]) expect(out.text).toContain(`Slim wallet model ${i}`);
    expect(out.text).toContain('Wallets made of aluminium');
    expect(out.text).not.toContain('Gunmetal');
  });

  it('do not include headings whose anchor id names a filter (a "bloom-filter" section)', () => {
    const html = `<html><body><div class="page"><h1>Wallets</h1>
      <h3 id="rfid-filter">RFID filter layer</h3><p>Blocks card skimming.</p>
      <ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul></div></body></html>`;
    expect(processHtml(html, { url: URL, formats: ['text'] }).text).toContain('RFID filter layer');
  });

  it('stay when the region is mostly the named block (a framework calls the list a filter)', () => {
    const html = `<html><body><div class="page"><h1>Wallets</h1>
      <div class="filter-results"><ul>${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul></div></div></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.text).toContain('Slim wallet model 3');
  });

  it('are found inside a wrapper named for them that also holds the items', () => {
    const html = `<html><body><div class="page"><h1>Wallets</h1>
      <div class="collection-grid facets-vertical"><div class="facets-container">${facet('Material', ['Aluminium', 'Carbon', 'Titanium'])}${facet('Colour', ['Gunmetal', 'Navy'])}</div>
      <ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul></div></div></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.text).toContain('Slim wallet model 3');
    expect(out.text).not.toContain('Gunmetal');
  });
});

describe('filter panels of a product page', () => {
  it('the review filters go, the product stays', () => {
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail wallet","offers":{"@type":"Offer","price":"40","priceCurrency":"USD"}}</script>`;
    const review = (i: number): string =>
      `<div class="review"><p>Review ${i}: carried it every day for a year, the carbon plates still look new and the band holds.</p></div>`;
    const html = `<html><head><title>Trail wallet</title>${ld}</head><body><main><h1>Trail wallet</h1><p>$40.00</p>
      <p>A slim wallet of two carbon plates and an elastic band that holds twelve cards and folded cash.</p>
      <h2>Customer reviews</h2><div class="review-filters"><h4>Filters</h4><label>Playtime:<select><option>Any</option></select></label>
      <label>Device type:<select><option>Any</option></select></label><span>Excluding off-topic review activity</span></div>
      ${[1, 2, 3].map(review).join('')}</main></body></html>`;
    const out = processHtml(html, {
      url: 'https://shop.example.com/products/trail-wallet',
      formats: ['text'],
    });
    expect(out.metadata.pageType).toBe('product');
    expect(out.text).toContain('two carbon plates');
    expect(out.text).not.toContain('Excluding off-topic');
    expect(out.text).not.toContain('Device type');
  });
});
