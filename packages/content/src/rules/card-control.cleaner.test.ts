import { processHtml } from '../index';

const URL = 'https://shop.example.com/collections/wallets';
const card = (i: number): string =>
  `<li class="card"><a href="/products/w${i}"><h3>Slim wallet model ${i}</h3></a><span>$${40 + i}.00</span>
    <a href="/products/w${i}#details" class="cta"><span>View details</span></a><div class="wish">Add to wishlist</div></li>`;

describe('controls repeated on the cards of a collection', () => {
  it('go; the names and prices stay', () => {
    const html = `<html><body><main><h1>Wallets</h1>
      <ul class="grid">${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</ul></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('collection');
    expect(out.text).toContain('Slim wallet model 5');
    expect(out.text).toContain('$45.00');
    expect(out.text).not.toContain('View details');
    expect(out.text).not.toContain('Add to wishlist');
  });

  it('stay when a page has one such link only', () => {
    const html = `<html><body><main><h1>Wallets</h1>
      <ul class="grid">${Array.from({ length: 6 }, (_, i) => `<li><a href="/p/${i}">Slim wallet model ${i}</a> <span>$4${i}.00</span></li>`).join('')}</ul>
      <p><a href="/compare">Compare</a></p></main></body></html>`;
    expect(processHtml(html, { url: URL, formats: ['text'] }).text).toContain('Compare');
  });

  it('take the links that open a teaser card or its list of extras', () => {
    const teaser = (i: number): string =>
      `<li class="card"><a href="/products/w${i}"><h3>Slim wallet model ${i}</h3></a><p>Leather, six card slots and a coin pocket, in ${i + 2} colours.</p>
        <span>$${40 + i}.00</span><a href="/products/w${i}" class="more">Read full story →</a><a href="#extras-${i}">+ More</a></li>`;
    const html = `<html><body><main><h1>Wallets</h1>
      <ul class="grid">${Array.from({ length: 6 }, (_, i) => teaser(i)).join('')}</ul></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.text).toContain('six card slots and a coin pocket, in 7 colours');
    expect(out.text).not.toContain('Read full story');
    expect(out.text).not.toMatch(/^\+ More$/m);
  });
});
