import { articlePage, prose, textOf } from '../test-support/article-page';

const story = `<article class="post"><h1>River bridge opens</h1><p>${prose(5, 'story')}</p><p>${prose(4, 'story')}</p></article>`;
const teasers = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<article class="post teaser"><img src="/t${i}.jpg" alt=""><p>${prose(3, `teaser${i}`)}</p></article>`,
  ).join('');
const page = (section: string): string =>
  articlePage('River bridge opens', `<main>${story}${section}</main>`);
const text = (html: string): string => textOf(html, 'https://example.com/blog/story.html');

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
