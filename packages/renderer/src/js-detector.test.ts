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
