import { TextPieces } from '@wcs/net/text-pieces';
import { needsJavaScript, visibleText } from './js-detector';

const article = `<html><body><nav><a href="/">Home</a></nav><main><h1>Title</h1>
<p>${'Server rendered paragraph with plenty of readable words. '.repeat(20)}</p></main>
<script src="/a.js"></script><script src="/b.js"></script><script src="/c.js"></script><script>x()</script>
<div id="root"></div></body></html>`;

describe('needsJavaScript', () => {
  it('is false for server-rendered articles, even with many scripts and a mount point', () => {
    expect(needsJavaScript(article)).toBe(false);
  });

  it('is true for an empty React/Next/Vue mount point', () => {
    expect(
      needsJavaScript('<html><body><div id="root"></div><script src="/main.js"></script></body></html>'),
    ).toBe(true);
    expect(needsJavaScript('<body><div id="__next">  </div></body>')).toBe(true);
    expect(needsJavaScript("<body><div class='x' id='app'><!-- app --></div></body>")).toBe(true);
    expect(needsJavaScript('<body><app-root></app-root></body>')).toBe(true);
  });

  it('is true for a noscript asking to enable JavaScript with little text', () => {
    expect(
      needsJavaScript(
        '<body><noscript>You need to enable JavaScript to run this app.</noscript><main></main></body>',
      ),
    ).toBe(true);
    expect(needsJavaScript('<body><noscript>JavaScript is required.</noscript><p>Loading…</p></body>')).toBe(
      true,
    );
  });

  it('is true for many scripts and no text, false for a tiny static page', () => {
    const scripts = '<script src="/1.js"></script><script src="/2.js"></script><script src="/3.js"></script>';
    expect(needsJavaScript(`<html><body>${scripts}</body></html>`)).toBe(true);
    expect(needsJavaScript('<html><body><p>Short but real static page.</p></body></html>')).toBe(false);
  });

  it('does not count script/style/noscript text as visible', () => {
    expect(
      visibleText('<body><style>p{}</style><script>var a = "text";</script><p>Hi &amp; bye</p></body>'),
    ).toBe('Hi &amp; bye');
  });
});

describe('large pages: the start of the body decides when it shows enough text', () => {
  const filler = (n: number) => `<p>${'Plenty of server-rendered words here. '.repeat(n)}</p>`;
  const shell = '<div id="root"></div><script src="/app.js"></script><script>boot()</script>';

  it('a large page with text early needs no browser', () => {
    expect(
      needsJavaScript(`<html><body>${filler(10)}${'<div class="x"></div>'.repeat(10_000)}</body></html>`),
    ).toBe(false);
  });

  it('a script or style block cut by the window hides its text: a large app shell still needs the browser', () => {
    const bigScript = `<script>window.__DATA__ = "${'x'.repeat(100_000)}";</script>`;
    const bigStyle = `<style>${'.a{color:red}'.repeat(8_000)}</style>`;
    expect(needsJavaScript(`<html><body>${bigScript}${shell}</body></html>`)).toBe(true);
    expect(needsJavaScript(`<html><body>${bigStyle}${shell}</body></html>`)).toBe(true);
    // A tag cut by the window (no ">" inside it) is not text either.
    const longTag = `<div data-x="${'y'.repeat(40_000)}">`;
    expect(
      needsJavaScript(`<html><body>${longTag}</div>${shell}${'<i></i>'.repeat(10_000)}</body></html>`),
    ).toBe(true);
  });

  it('text only past the window is still found by the full scan', () => {
    const late = `<html><body>${'<div></div>'.repeat(8_000)}${filler(10)}${shell}</body></html>`;
    expect(late.length).toBeGreaterThan(65_536);
    expect(needsJavaScript(late)).toBe(false);
  });
});

describe("a decoded page's pieces (TextPieces of @wcs/net)", () => {
  const filler = (n: number) => `<p>${'Plenty of server-rendered words here. '.repeat(n)}</p>`;
  const shell = '<div id="root"></div><script src="/app.js"></script><script>boot()</script>';
  const pages = [
    `<html><head><style>${'.a{}'.repeat(20_000)}</style></head><body class="x">${filler(10)}${'<i></i>'.repeat(9_000)}</body></html>`,
    `<html><body>${'<div></div>'.repeat(8_000)}${filler(10)}${shell}</body></html>`,
    `<html><body><script>${'x'.repeat(100_000)}</script>${shell}</body></html>`,
    `<html><BODY>${filler(1)}${'<b></b>'.repeat(12_000)}</BODY></html>`,
    `<html><bodyx>${filler(10)}${'<b></b>'.repeat(12_000)}<body>${filler(10)}</body></html>`,
  ];

  it('decides as the joined text does, wherever the pieces are cut (the body tag across a cut too)', () => {
    for (const page of pages) {
      const expected = needsJavaScript(page);
      const at = page.search(/<body/i);
      for (const size of [32_768, 7_001, at + 3]) {
        const pieces: string[] = [];
        for (let i = 0; i < page.length; i += size) pieces.push(page.slice(i, i + size));
        expect(needsJavaScript(new TextPieces(pieces))).toBe(expected);
      }
    }
  });
});

describe('hostile markup (every scan is linear: these would run for hours if it were not)', () => {
  it.each([
    ['unclosed "<"', '<'.repeat(1_000_000)],
    ['unclosed <div attributes', '<div x'.repeat(200_000)],
    ['unclosed <script>', '<script>'.repeat(150_000)],
    ['unclosed comments', '<!--'.repeat(250_000)],
    ['unclosed <noscript>', '<noscript>'.repeat(100_000)],
    ['mount points inside one long comment', `<div id="root"><!--${'<div id="root">'.repeat(70_000)}-->`],
    ['a long run of tags', '<b></b>'.repeat(150_000)],
  ])('%s: answers', (_name, markup) => {
    expect(typeof needsJavaScript(`<html><body>${markup}</body></html>`)).toBe('boolean');
  });

  it('keeps the rules on the same pages', () => {
    expect(needsJavaScript('<body><div id="root"><!-- a --><!-- b --></div></body>')).toBe(true);
    expect(needsJavaScript('<body><div id="rooted-x">x</div></body>')).toBe(false);
    expect(visibleText('<body><p>a</p><script>never closed <p>b</p></body>')).toBe('a never closed b');
    expect(visibleText('<body><p>a</p><!-- never closed <p>b</p></body>')).toBe('a');
  });
});
