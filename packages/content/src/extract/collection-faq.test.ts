import { processHtml } from '../index';

const URL = 'https://shop.example.com/collections/wallets';
const card = (i: number): string =>
  `<li class="card"><a href="/products/w${i}"><h3>Slim wallet model ${i}</h3></a><span>$${40 + i}.00</span></li>`;
const qa = (i: number): string =>
  `<h3>Question ${i}: which wallet suits a front pocket?</h3><p>Answer ${i}: a slim wallet of aluminium or carbon holds up to twelve cards, some folded cash and a key, and it stays flat in a front pocket, even in tight jeans, for years of daily use.</p>`;
const faqLd = JSON.stringify({ '@context': 'https://schema.org', '@type': 'FAQPage', mainEntity: [] });

const page = (declared: boolean): string => `<html><head>
  ${declared ? `<script type="application/ld+json">${faqLd}</script>` : ''}</head>
  <body><header><nav><a href="/">Home</a> <a href="/about">About us</a></nav></header>
  <main><h1>Wallets</h1><ul class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</ul>
  <section class="faq">${Array.from({ length: 5 }, (_, i) => qa(i)).join('')}</section></main>
  <footer>Footer text, all rights reserved</footer></body></html>`;

describe('a collection page declaring an FAQPage', () => {
  it('keeps its items: the FAQ under them does not make it an article', () => {
    const out = processHtml(page(true), { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('collection');
    for (const i of [0, 7]) expect(out.text).toContain(`Slim wallet model ${i}`);
    expect(out.text).not.toContain('Footer text');
  });
});
