import { processHtml } from '../index';
import { titleMatch } from './title-heading';

const URL = 'https://example.com/news/story.html';
const prose = (n: number, word = 'content'): string =>
  Array.from(
    { length: n },
    (_, i) => `Sentence ${i} about ${word}, with commas, clauses, and enough words to count.`,
  ).join(' ');
const body = `<p>${prose(5, 'body')}</p><p>${prose(4, 'body')}</p><p>${prose(4, 'end')}</p>`;
const TITLE = 'Council approves the new river bridge';
const head = (title = `${TITLE} | The Daily Example`, extra = ''): string =>
  `<head><title>${title}</title>${extra}</head>`;
const nav = `<header class="site-header"><a href="/" class="logo">The Daily Example</a>
  <nav><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav></header>`;
const all = (html: string) => processHtml(html, { url: URL, formats: ['markdown', 'html', 'text', 'json'] });

function expectTitleFirst(html: string): void {
  const out = all(html);
  expect(out.markdown.startsWith(`# ${TITLE}\n`)).toBe(true);
  expect(out.markdown.split(TITLE).length).toBe(2); // exactly once
  expect(out.text.startsWith(`${TITLE}\n`)).toBe(true);
  expect(out.html).toMatch(new RegExp(`^(?:<(?:article|div|main|header)[^>]*>)*<h1[^>]*>${TITLE}</h1>`));
  expect(out.json?.headings[0]).toEqual({ level: 1, text: TITLE });
  expect(out.json?.blocks[0]).toEqual({ type: 'heading', level: 1, text: TITLE });
  expect(out.markdown).toContain('Sentence 3 about end');
}

describe('the page title on top of the main content', () => {
  it('keeps an <h1 class="title"> at the top of the <article>', () => {
    expectTitleFirst(
      `<html>${head()}<body>${nav}<article><h1 class="title">${TITLE}</h1>
        <p class="byline">By Jane Reporter</p>${body}</article><footer>© Example</footer></body></html>`,
    );
  });

  it('keeps an <h1> in a header just above the article', () => {
    expectTitleFirst(
      `<html>${head()}<body>${nav}<main><header class="entry-header"><h1 class="entry-title">${TITLE}</h1>
        <div class="meta">November 20, 2019 · 4 min read</div></header>
        <div class="entry-content">${body}</div></main></body></html>`,
    );
  });

  it('keeps an <h1> inside a <header> inside the article', () => {
    expectTitleFirst(
      `<html>${head()}<body>${nav}<article><header><h1>${TITLE}</h1><time>Nov 20, 2019</time></header>
        <div class="article-body">${body}</div></article></body></html>`,
    );
  });

  it('takes og:title when <title> is only the site name, and an <h2> title as the first-level heading', () => {
    expectTitleFirst(
      `<html>${head('The Daily Example', `<meta property="og:title" content="${TITLE}">`)}<body>${nav}
        <div class="post"><h2 class="post-title">${TITLE}</h2>${body}</div></body></html>`,
    );
  });

  it('adds no heading when the page shows none', () => {
    const out = all(`<html>${head()}<body>${nav}<article>${body}</article></body></html>`);
    expect(out.markdown.startsWith('Sentence 0 about body')).toBe(true);
    expect(out.markdown).not.toContain(TITLE);
    expect(out.json?.headings).toEqual([]);
  });

  it('does not take a logo <h1> (the site name) for the title', () => {
    const logo = `<header><h1 class="logo"><a href="/">The Daily Example</a></h1></header>`;
    const out = all(`<html>${head()}<body>${logo}<article>${body}</article></body></html>`);
    expect(out.markdown).not.toContain('The Daily Example');
    expect(out.markdown.startsWith('Sentence 0 about body')).toBe(true);
    // with the real headline present as well, the headline wins
    const both = `<html>${head()}<body>${logo}<article><h1>${TITLE}</h1>${body}</article></body></html>`;
    expect(all(both).markdown.startsWith(`# ${TITLE}\n`)).toBe(true);
  });

  it('keeps an <h1> opening the article when the declared title is worded otherwise', () => {
    const out = all(
      `<html>${head('The Daily Example – local news')}<body>${nav}<article><h1>${TITLE}</h1>${body}</article></body></html>`,
    );
    expect(out.markdown.startsWith(`# ${TITLE}\n`)).toBe(true);
    // but not a logo heading (a link to the home page) at the top of the content
    const logo = all(
      `<html>${head('The Daily Example – local news')}<body><div class="wrap"><h1><a href="/">Daily Example</a></h1>${body}</div></body></html>`,
    );
    expect(logo.markdown).not.toContain('Daily Example');
  });

  it('does not pull in a heading far above the content', () => {
    const teaser = (i: number): string =>
      `<div class="card"><a href="/story/${i}">Another story number ${i} from the archive</a>
        <p>${prose(1, `card${i}`)}</p></div>`;
    const far = `<html>${head()}<body><div class="hero"><h1>${TITLE}</h1></div>
      <section class="grid">${[1, 2, 3, 4, 5, 6].map(teaser).join('')}</section>
      <article>${body}</article></body></html>`;
    const out = all(far);
    expect(out.markdown).toContain('Sentence 3 about end');
    expect(out.markdown).not.toContain('about card3');
    expect(out.markdown).not.toContain(`# ${TITLE}`);
  });

  it('matches headings to declared titles, not to the site name', () => {
    expect(titleMatch(TITLE, [`${TITLE} | The Daily Example`])).toBeGreaterThan(0.9);
    expect(titleMatch('The Daily Example', [`${TITLE} | The Daily Example`])).toBeLessThan(0.75);
    expect(titleMatch('The Daily Example', [TITLE], 'The Daily Example')).toBe(0);
    expect(titleMatch('Council approves new river bridge', [TITLE])).toBeGreaterThan(0.75);
    expect(titleMatch('Council approves the new river bridge', [`${TITLE} – Local news – Example`])).toBe(1);
  });
});
