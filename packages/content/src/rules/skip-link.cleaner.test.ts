import { processHtml } from '../index';

// Skip links inside the content region: a shop puts one above its grid, past the filters; a
// service page keeps its theme's three at the top of <main>. A link to another page that says
// "skip" and a sentence about skipping are the page's own.
const page = (inMain: string): string => `<html><head><title>Kettles</title></head><body>
  <header><a href="#main">Skip to main content</a><nav><a href="/">Home</a></nav></header>
  <main id="main"><h1>Kettles</h1>${inMain}
  <p>Electric and stovetop kettles for every kitchen, chosen by our team after a year of tests.</p>
  <p>Busy mornings? Skip the queue: <a href="/pickup">order ahead</a> and collect at the counter.</p>
  <ul>${Array.from({ length: 6 }, (_, i) => `<li><a href="/products/k-${i}">Kettle model ${i}</a> $${40 + i}.00</li>`).join('')}</ul>
  <p><a href="/skip-the-line">Skip the line service</a> is free for members.</p></main></body></html>`;

describe('skip links', () => {
  const out = processHtml(
    page(
      '<a href="#results" class="sr-only focus:not-sr-only">Skip to search results</a><a href="#footer">Skip to Footer</a>',
    ),
    { url: 'https://shop.example.com/collections/kettles', formats: ['text'] },
  );

  it('go, inside the content region too', () => {
    expect(out.text).not.toMatch(/skip to/i);
  });

  it('while the page text, a link elsewhere and a sentence about skipping stay', () => {
    expect(out.text).toContain('chosen by our team');
    expect(out.text).toContain('Kettle model 5');
    expect(out.text).toContain('Skip the queue');
    expect(out.text).toContain('Skip the line service');
  });
});
