import { processHtml } from '../index';

const URL = 'https://shop.example.com/collections/wallets';
const card = (i: number): string =>
  `<div class="tile"><img src="/img/w${i}.jpg" alt=""><a href="/products/w${i}">Slim wallet model ${i}</a>
    <div>Matte finish</div><div>$${40 + i}.00</div></div>`;

describe('the item grid of a collection in markdown', () => {
  it('reads as one bullet per item when the cards are plain boxes', () => {
    const html = `<html><body><main><h1>Wallets</h1>
      <div class="grid">${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</div></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['markdown', 'text'] });
    expect(out.metadata.pageType).toBe('collection');
    const bullets = out.markdown.split('\n').filter((l) => l.startsWith('- '));
    expect(bullets).toHaveLength(6);
    expect(out.markdown).toMatch(/^ {2}\$45\.00$/m);
    expect(out.text).toContain('Slim wallet model 5');
  });

  it('leaves a grid with a banner among its cards as it is', () => {
    const html = `<html><body><main><h1>Wallets</h1>
      <div class="grid">${Array.from({ length: 6 }, (_, i) => card(i)).join('')}<div class="wide-tile"><p>Free shipping this week on every order</p></div></div></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['markdown'] });
    expect(out.markdown.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(0);
  });
});
