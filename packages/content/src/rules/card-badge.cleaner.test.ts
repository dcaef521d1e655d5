import { processHtml } from '../index';

const URL = 'https://shop.example.com/collections/lamps';

// A collection whose cards carry merchandising stickers and a stock state.
const card = (i: number, sticker: string): string =>
  `<li class="product-card"><span class="badge">${sticker}</span><a href="/products/lamp-${i}"><h3>Desk lamp model ${i}</h3></a><span class="price">$${30 + i}.00</span>${i === 2 ? '<span class="stock">Sold out</span>' : ''}</li>`;
const stickers = ['New', 'Sale', 'Online only', 'New', 'Top rated', 'Sale', 'New', 'Award winner'];

const page = `<html><head><title>Desk lamps | Example Lighting</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/collections/sale">Sale</a></nav></header>
  <main><h1>Desk lamps</h1>
    <ul class="product-grid">${stickers.map((s, i) => card(i, s)).join('')}</ul></main>
  <footer><p>Example Lighting, all rights reserved</p></footer></body></html>`;

describe('stickers on the cards of a collection', () => {
  const out = processHtml(page, { url: URL, formats: ['text'] });

  it('go when several cards carry them', () => {
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).not.toMatch(/^(?:New|Sale|Online only|Top rated|Award winner)$/m);
  });

  it('while the items and their stock state stay', () => {
    for (const i of [0, 7]) expect(out.text).toContain(`Desk lamp model ${i}`);
    expect(out.text).toContain('$37.00');
    expect(out.text).toContain('Sold out');
  });
});

// Outlet and clearance stickers, beside a list of the shop's sections that names a few once each.
const outletCard = (i: number, sticker: string): string =>
  `<li class="product-card"><span class="badge">${sticker}</span><a href="/products/chair-${i}"><h3>Office chair model ${i}</h3></a><span class="price">$${90 + i}.00</span></li>`;
const outletStickers = [
  'Example Outlet',
  'Clearance',
  'Brand new',
  'Example Outlet',
  'Clearance',
  'Brand new',
];
const sections = ['Sale', 'New arrivals', 'Outlet']
  .map((s) => `<li><a href="/collections/${s.toLowerCase().replace(' ', '-')}">${s}</a></li>`)
  .join('');

const outletPage = `<html><head><title>Office chairs | Example Office</title></head><body>
  <main><h1>Office chairs</h1><p>Ergonomic chairs for home and office, all with a five-year warranty.</p>
    <ul class="product-grid">${outletStickers.map((s, i) => outletCard(i, s)).join('')}</ul></main>
  <footer><p>Example Office, all rights reserved</p></footer></body></html>`;
const menuPage = `<html><head><title>Office chairs | Example Office</title></head><body>
  <main><h1>Office chairs</h1><p>Ergonomic chairs for home and office, all with a five-year warranty.</p>
    <ul class="sections">${sections}</ul>
    <ul class="product-grid">${outletStickers.map((_, i) => outletCard(i, '')).join('')}${outletStickers.map((_, i) => outletCard(i + 6, '')).join('')}</ul></main>
  <footer><p>Example Office, all rights reserved</p></footer></body></html>`;

describe('outlet and clearance stickers on the cards of a collection', () => {
  it('go when several cards carry them', () => {
    const out = processHtml(outletPage, { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).not.toMatch(/^(?:Example Outlet|Clearance|Brand new)$/m);
    expect(out.text).toContain('Office chair model 5');
  });

  it('while a list naming each once stays', () => {
    const out = processHtml(menuPage, { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).toMatch(/New arrivals/);
    expect(out.text).toMatch(/Outlet/);
  });
});
