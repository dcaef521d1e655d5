import { Element } from 'domhandler';
import { processHtml } from '../index';
import { looksUnlikely } from './boilerplate.cleaner';

const URL = 'https://shop.example.org/collections/tea';

// A shop's collection whose cards carry a capability flag in their class ("subscription-eligible":
// the product can be bought on subscription) beside a real subscribe box named "subscription".
const card = (i: number, flag: string): string =>
  `<li class="grid-item"><div class="card-wrapper ${flag}"><div class="card"><h3><a href="/products/tea-${i}">Loose leaf tea ${i}</a></h3>` +
  `<div class="price">$${12 + i}.99</div></div></div></li>`;

const page = (flag: string): string => `<html><head><title>Tea – Example Tea Co</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/collections">Shop</a></nav></header>
  <main><h1>Tea</h1>
    <ul class="product-grid">${Array.from({ length: 12 }, (_, i) => card(i, i % 3 ? '' : flag)).join('')}</ul>
    <div class="subscription-box"><h2>Join our list</h2><p>Sign up for letters about new harvests and get 10% off your first order.</p></div>
  </main>
  <footer><p>Example Tea Co, all rights reserved</p></footer></body></html>`;

describe('a class token that flags what an element allows', () => {
  const out = processHtml(page('subscription-eligible'), { url: URL, formats: ['text'] });

  it('does not make a card chrome: every card of the grid stays, flagged (0, 3, 6, 9) or not', () => {
    for (let i = 0; i < 12; i++) expect(out.text).toContain(`Loose leaf tea ${i}`);
    expect(out.text).toContain('$12.99');
  });

  it('while an element named for its role still goes (the subscribe box)', () => {
    expect(out.text).not.toContain('Sign up for letters');
  });

  it('is read as a state, not a role, by the chrome names', () => {
    const named = (cls: string): Element => new Element('div', { class: cls });
    for (const cls of ['card-wrapper subscription-eligible', 'share-enabled', 'cart_available', 'ad-allowed'])
      expect(looksUnlikely(named(cls))).toBe(false);
    // a role word in another token still counts
    for (const cls of ['subscription-box', 'share-buttons share-enabled', 'newsletter subscription-eligible'])
      expect(looksUnlikely(named(cls))).toBe(true);
  });
});
