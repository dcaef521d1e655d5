import { processHtml } from './index';

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
