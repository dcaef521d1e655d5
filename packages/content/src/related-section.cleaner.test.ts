import { processHtml } from './index';

const URL = 'https://example.com/blog/story.html';
const prose = (n: number, word: string): string =>
  Array.from(
    { length: n },
    (_, i) => `Sentence ${i} about ${word}, with commas, clauses, and enough words to count.`,
  ).join(' ');
const story = `<article class="post"><h1>River bridge opens</h1><p>${prose(5, 'story')}</p><p>${prose(4, 'story')}</p></article>`;
const teasers = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<article class="post teaser"><img src="/t${i}.jpg" alt=""><p>${prose(3, `teaser${i}`)}</p></article>`,
  ).join('');
const page = (section: string): string =>
  `<html><head><title>River bridge opens</title><meta property="og:type" content="article"></head><body><main>${story}${section}</main></body></html>`;
const text = (html: string): string => processHtml(html, { url: URL, formats: ['text'] }).text;

describe('related sections after the story', () => {
  it('drops a section opened by a heading whose class names it related, in any language, teasers and all', () => {
    const out = text(
      page(
        `<article class="post"><h3 class="relatedpoststitle">Vous aimerez aussi...</h3>${teasers(5)}</article>`,
      ),
    );
    expect(out).toContain('Sentence 3 about story');
    expect(out).not.toContain('Vous aimerez aussi');
    expect(out).not.toContain('teaser2');
  });

  it('drops a section opened by a "Similar articles" heading', () => {
    const out = text(page(`<section><h2>Similar articles</h2>${teasers(4)}</section>`));
    expect(out).toContain('Sentence 3 about story');
    expect(out).not.toContain('teaser1');
  });

  it('keeps a section whose heading only mentions an unrelated topic', () => {
    const out = text(
      page(
        `<section><h2 class="unrelated-findings">Other findings</h2><p>${prose(3, 'findings')}</p></section>`,
      ),
    );
    expect(out).toContain('Sentence 2 about findings');
  });

  it('keeps a related-named section that comes before any story text', () => {
    const html = `<html><head><title>Notes</title></head><body><main><section><h2 class="related-title">Notes on bridges</h2><p>${prose(6, 'notes')}</p></section></main></body></html>`;
    expect(text(html)).toContain('Sentence 5 about notes');
  });
});
