import { ValidationError } from '@wcs/errors';
import { findInvalidSelector, type ProcessOptions, processDocument, processHtml } from '../index';

const URL = 'https://example.com/guide/page.html';
const prose = (n: number, word: string): string =>
  Array.from(
    { length: n },
    (_, i) => `Sentence ${i} about ${word}, with commas, clauses, and enough words to count.`,
  ).join(' ');

/** Every section carries a marker word, so a test can say which sections a conversion kept. */
const PAGE = `<!doctype html><html lang="en"><head><title>Tagged Page</title>
<meta name="description" content="A page with sections"></head><body>
<header><h1>Tagged Page</h1><p>Header tagline HDRMARK</p></header>
<nav><a href="/">Home</a> <a href="/docs">Docs NAVMARK</a></nav>
<article><h2>Article heading</h2><p>ALPHAMARK ${prose(6, 'alpha')}</p>
<div class="ad">Sponsored ADMARK buy widgets now</div>
<p class="note">Editor note NOTEMARK: ${prose(2, 'beta')}</p>
<p>GAMMAMARK ${prose(6, 'gamma')}</p>
<section id="comments"><h3>Comments</h3><p>COMMENTMARK great post</p></section></article>
<aside><h3>Related</h3><p>ASIDEMARK other stories</p></aside>
<footer><p>FOOTMARK copyright</p></footer></body></html>`;

const MARKS = [
  'HDRMARK',
  'NAVMARK',
  'ALPHAMARK',
  'ADMARK',
  'NOTEMARK',
  'GAMMAMARK',
  'COMMENTMARK',
  'ASIDEMARK',
  'FOOTMARK',
];

const run = (opts: Omit<ProcessOptions, 'url'>) => processHtml(PAGE, { url: URL, ...opts });
/** The marker words a text holds, in the order they appear. */
const marks = (text: string): string[] =>
  MARKS.map((m) => [m, text.indexOf(m)] as const)
    .filter(([, i]) => i >= 0)
    .sort((a, b) => a[1] - b[1])
    .map(([m]) => m);

describe('excludeTags', () => {
  it('onlyMainContent false: the whole body minus the matches (tag, class and id selectors)', () => {
    expect(marks(run({ onlyMainContent: false }).markdown)).toEqual(MARKS);
    const out = run({ onlyMainContent: false, excludeTags: ['header', 'nav', '.ad', '#comments', 'footer'] });
    expect(marks(out.markdown)).toEqual(['ALPHAMARK', 'NOTEMARK', 'GAMMAMARK', 'ASIDEMARK']);
    expect(marks(out.html)).toEqual(['ALPHAMARK', 'NOTEMARK', 'GAMMAMARK', 'ASIDEMARK']);
    expect(marks(out.text)).toEqual(['ALPHAMARK', 'NOTEMARK', 'GAMMAMARK', 'ASIDEMARK']);
    expect(out.markdown).not.toContain('Comments');
  });

  it('onlyMainContent true: removes what main content would have kept', () => {
    const before = run({});
    expect(marks(before.markdown)).toContain('NOTEMARK');
    const out = run({ excludeTags: ['p.note'] });
    expect(marks(out.markdown)).toEqual(['ALPHAMARK', 'GAMMAMARK']);
    expect(out.markdown).toContain('## Article heading');
  });

  it('descendant and attribute selectors see the page as written', () => {
    const out = run({ onlyMainContent: false, excludeTags: ['article > p:first-of-type', '[class~="ad"]'] });
    expect(marks(out.markdown)).toEqual(MARKS.filter((m) => m !== 'ALPHAMARK' && m !== 'ADMARK'));
  });

  it('keeps metadata from the whole page', () => {
    const out = run({ excludeTags: ['header', 'h1', 'title'] });
    expect(out.metadata.title).toBe('Tagged Page');
    expect(out.metadata.description).toBe('A page with sections');
    expect(out.metadata.language).toBe('en');
  });
});

describe('includeTags', () => {
  it('onlyMainContent false: only the matches, in document order (not selector order)', () => {
    const out = run({ onlyMainContent: false, includeTags: ['footer', 'nav', '#comments'] });
    expect(marks(out.markdown)).toEqual(['NAVMARK', 'COMMENTMARK', 'FOOTMARK']);
    expect(marks(out.html)).toEqual(['NAVMARK', 'COMMENTMARK', 'FOOTMARK']);
    expect(out.markdown).toContain('[Docs NAVMARK](https://example.com/docs)');
  });

  it('onlyMainContent true: main content of the matches only; the page title heading outside stays out', () => {
    // Without the option the header's <h1> is brought in as the content's title.
    expect(run({}).markdown).toMatch(/^# Tagged Page/);
    const out = run({ includeTags: ['article'] });
    expect(out.markdown).not.toContain('# Tagged Page');
    expect(marks(out.markdown)).toEqual(['ALPHAMARK', 'NOTEMARK', 'GAMMAMARK']);
    expect(out.markdown).toContain('## Article heading');
  });

  it('nested matches are kept once, inside their outer match', () => {
    const out = run({ onlyMainContent: false, includeTags: ['article p', 'article', '#comments p'] });
    for (const m of ['ALPHAMARK', 'NOTEMARK', 'GAMMAMARK', 'COMMENTMARK', 'ADMARK'])
      expect(out.text.split(m).length - 1).toBe(1);
    expect(marks(out.text)).toEqual(['ALPHAMARK', 'ADMARK', 'NOTEMARK', 'GAMMAMARK', 'COMMENTMARK']);
  });

  it('inline matches do not run together', () => {
    const html =
      '<html><body><p><span class="k">alpha</span>-<b>x</b>-<span class="k">beta</span></p></body></html>';
    const out = processHtml(html, { url: URL, onlyMainContent: false, includeTags: ['span.k'] });
    expect(out.text).toMatch(/^alpha\s+beta$/);
  });

  it.each([true, false])('no match gives empty content, not the whole page (onlyMainContent %s)', (only) => {
    const out = run({
      onlyMainContent: only,
      includeTags: ['.missing', '#nowhere'],
      formats: ['markdown', 'html', 'text', 'json'],
    });
    expect(out.markdown).toBe('');
    expect(out.html).toBe('');
    expect(out.text).toBe('');
    expect(out.json?.blocks).toEqual([]);
    expect(out.metadata.title).toBe('Tagged Page');
  });

  it('no match stays empty even when the page declares a JSON-LD body (the fallback for empty pages)', () => {
    const html = `<html><head><title>App</title><script type="application/ld+json">
      {"@type":"Article","articleBody":"${prose(8, 'declared')}"}</script></head><body><div id="app"></div></body></html>`;
    expect(processHtml(html, { url: URL }).markdown).toContain('declared');
    expect(processHtml(html, { url: URL, includeTags: ['main'] }).markdown).toBe('');
  });

  it('with excludeTags: exclusions win, inside a match and around one', () => {
    const inner = run({
      onlyMainContent: false,
      includeTags: ['article'],
      excludeTags: ['.ad', '#comments'],
    });
    expect(marks(inner.markdown)).toEqual(['ALPHAMARK', 'NOTEMARK', 'GAMMAMARK']);
    const around = run({
      onlyMainContent: false,
      includeTags: ['aside p', 'footer'],
      excludeTags: ['aside'],
    });
    expect(marks(around.markdown)).toEqual(['FOOTMARK']);
  });

  it('empty lists are no filter at all', () => {
    const plain = run({});
    const out = run({ includeTags: [], excludeTags: [] });
    expect(out.markdown).toBe(plain.markdown);
    expect(out.html).toBe(plain.html);
  });
});

describe('invalid selectors', () => {
  it('findInvalidSelector names the first selector css-select cannot use', () => {
    expect(
      findInvalidSelector(['article', 'div.a > p', '#x, .y', 'p:not(.z)', ':is(h1, h2)']),
    ).toBeUndefined();
    expect(findInvalidSelector(['article', 'div[', '::before'])).toBe('div[');
    for (const bad of [
      '',
      '   ',
      'div >',
      '> p',
      'p:not(',
      'a::before',
      'svg|rect',
      'p:unknown-pseudo',
      ',p',
    ])
      expect(findInvalidSelector(['p', bad])).toBe(bad);
  });

  it('one that slips through fails the page with a ValidationError naming it, whatever the content type', () => {
    const fail = (f: () => unknown): ValidationError => {
      try {
        f();
      } catch (err) {
        return err as ValidationError;
      }
      throw new Error('did not throw');
    };
    const html = fail(() => run({ excludeTags: ['nav', 'div >'] }));
    expect(html).toBeInstanceOf(ValidationError);
    expect(html.code).toBe('VALIDATION_FAILED');
    expect(html.message).toBe('excludeTags: "div >" is not a valid CSS selector');
    const text = fail(() =>
      processDocument({ body: 'plain', contentType: 'text/plain', url: URL }, { includeTags: ['::after'] }),
    );
    expect(text).toBeInstanceOf(ValidationError);
    expect(text.message).toBe('includeTags: "::after" is not a valid CSS selector');
  });
});

describe('formats', () => {
  it('no content format: no content step, links and images still read', () => {
    const out = processHtml(`${PAGE}<img src="/x.png">`, {
      url: URL,
      formats: [],
      links: true,
      images: true,
    });
    expect([out.markdown, out.html, out.text, out.json]).toEqual(['', '', '', undefined]);
    expect(out.metadata.title).toBe('Tagged Page');
    expect(out.links?.links.map((l) => l.href)).toEqual(['/', '/docs']);
    expect(out.images).toEqual(['https://example.com/x.png']);
  });

  it('the tag options leave the links and images lists (the whole page) alone', () => {
    const html = PAGE.replace('</footer>', '<img src="/f.png"></footer>');
    const out = processHtml(html, { url: URL, includeTags: ['article'], links: true, images: true });
    expect(out.links?.links.map((l) => l.href)).toEqual(['/', '/docs']);
    expect(out.images).toEqual(['https://example.com/f.png']);
  });
});
