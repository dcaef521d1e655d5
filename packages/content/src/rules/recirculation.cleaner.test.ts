import { processHtml } from '../index';

const URL = 'https://news.example.org/world';
const story = (i: number): string =>
  `<article class="story"><h2><a href="/world/story-${i}">Harbour town number ${i} opens its new ferry line</a></h2>
  <p>Residents of the town welcomed the first crossing on Monday, after years of delays and a vote on the budget.</p></article>`;
const tail = (head: string): string =>
  `<div class="module"><h2>${head}</h2><ul>${Array.from(
    { length: 4 },
    (_, i) => `<li><a href="/other/${i}">Mountain pass number ${i} closes for the winter</a></li>`,
  ).join('')}</ul></div>`;
const page = (before: number, after: number, head: string): string =>
  `<html><body><main><h1>World news</h1>${Array.from({ length: before }, (_, i) => story(i)).join('')}${tail(head)}${Array.from(
    { length: after },
    (_, i) => story(before + i),
  ).join('')}</main></body></html>`;
const text = (html: string): string => processHtml(html, { url: URL, formats: ['text'] }).text;

describe('sections of other pages after a listing', () => {
  it('go when a heading names them and the list came before', () => {
    for (const head of ['Trending Stories', 'Recommended articles', 'Most read']) {
      const out = text(page(8, 0, head));
      expect(out).toContain('Harbour town number 7 opens its new ferry line');
      expect(out).not.toContain('Mountain pass number 3');
    }
  });

  it('stay when most of the list comes after them (the page opens with its own picks)', () => {
    expect(text(page(1, 7, 'Trending Stories'))).toContain('Mountain pass number 3');
  });

  it('stay under a heading of their own', () => {
    expect(text(page(8, 0, 'Mountain passes'))).toContain('Mountain pass number 3');
  });
});
