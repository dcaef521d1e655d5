import { processHtml } from '../index';

const URL = 'https://news.example.org/world';
const story = (i: number, tail: string): string =>
  `<article class="story"><h2><a href="/world/story-${i}">Harbour town number ${i} opens its new ferry line</a></h2>
  <p>Residents of the town welcomed the first crossing on Monday, after years of delays and a vote on the budget.</p>
  ${tail}</article>`;
const page = (tail: (i: number) => string): string =>
  `<html><body><main><h1>World news</h1>${Array.from({ length: 8 }, (_, i) => story(i, tail(i))).join('\n')}</main></body></html>`;

describe('the action link every item of a listing repeats', () => {
  it('goes when it points at each item; the items stay', () => {
    const out = processHtml(
      page((i) => `<p><a href="/world/story-${i}">Read the full story</a></p>`),
      { url: URL, formats: ['text'] },
    );
    expect(out.metadata.pageType).toBe('listing');
    expect(out.text).toContain('Harbour town number 7 opens its new ferry line');
    expect(out.text).toContain('after years of delays');
    expect(out.text).not.toContain('Read the full story');
  });

  it('stays when it points at one page every time (a section label)', () => {
    const out = processHtml(
      page(() => `<p><a href="/world/ports">Visit ports</a></p>`),
      { url: URL, formats: ['text'] },
    );
    expect(out.text).toContain('Visit ports');
  });

  it('stays when it is no action or sits inside a sentence', () => {
    const out = processHtml(
      page(
        (i) =>
          `<p><a href="/place/${i}">Harbourside</a></p><p>Timetables are online; <a href="/t/${i}">read more</a> at the port office.</p>`,
      ),
      { url: URL, formats: ['text'] },
    );
    expect(out.text).toContain('Harbourside');
    expect(out.text).toContain('read more at the port office');
  });
});
