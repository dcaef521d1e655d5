import { processHtml } from '../index';

const URL = 'https://shop.example.com/collections/wallets';
const page = (cards: string): string =>
  `<html><body><main><h1>Wallets</h1><p>Wallets made of aluminium, carbon and titanium.</p>
    <div class="grid">${cards}</div></main></body></html>`;
const markdown = (html: string): string => processHtml(html, { url: URL, formats: ['markdown'] }).markdown;

describe('links around blocks (cards)', () => {
  it('keep their link on the card name', () => {
    const card = (i: number): string =>
      `<div class="card"><a href="/products/w${i}"><img src="/w${i}.jpg" alt=""><div>Slim wallet ${i}</div><div>$${40 + i}.00</div></a></div>`;
    const md = markdown(page([1, 2, 3, 4, 5].map(card).join('')));
    expect(md).toContain('[Slim wallet 1](https://shop.example.com/products/w1)\n\n$41.00');
    expect(md).toContain('[Slim wallet 5](https://shop.example.com/products/w5)');
  });

  it('link a card heading inside the heading', () => {
    const card = (i: number): string =>
      `<div class="card"><a href="/p/${i}"><h3>Wallet kit ${i}</h3><p>Two wallets and a key case.</p></a></div>`;
    const md = markdown(page([1, 2, 3, 4].map(card).join('')));
    expect(md).toContain('### [Wallet kit 2](https://shop.example.com/p/2)\n\nTwo wallets and a key case.');
  });

  it('leave plain text output without link syntax', () => {
    const card = `<div><a href="/p/1"><div>Slim wallet</div><div>$40.00</div></a></div>`;
    const text = processHtml(page(card.repeat(4)), { url: URL, formats: ['text'] }).text;
    expect(text).not.toContain('](');
  });
});
