import { runRawPageTask } from './content.task';
import { WARM_UP_PAGE_KINDS, warmUpPage } from './content-warm-up-pages';

/** The warm-up swallows its errors (it must never fail a start), so its pages are checked here. */
describe('content warm-up pages', () => {
  const pages = Array.from({ length: 30 }, (_, n) => warmUpPage(n));

  it('is deterministic: every thread warms on the same pages', () => {
    expect(warmUpPage(7)).toBe(pages[7]);
  });

  it('varies what the pipeline meets: kinds, languages, small pages the wall checks read whole, large ones', () => {
    expect(new Set(pages).size).toBe(pages.length);
    expect(WARM_UP_PAGE_KINDS).toBeGreaterThanOrEqual(20);
    const sizes = pages.map((p) => Buffer.byteLength(p));
    expect(sizes.some((s) => s < 64_000)).toBe(true);
    expect(sizes.some((s) => s > 100_000)).toBe(true);
    expect(new Set(pages.map((p) => /<html lang="(\w+)"/.exec(p)?.[1])).size).toBeGreaterThanOrEqual(4);
    // Past Latin-1, as nearly every real page: V8 holds it as a two-byte string.
    expect(pages.every((p) => [...p].some((c) => c.charCodeAt(0) > 0xff))).toBe(true);
  });

  it('each converts as a page with content, not as a wall, an error or an empty shell', () => {
    for (const [n, html] of pages.entries()) {
      const out = runRawPageTask({
        raw: new Uint8Array(Buffer.from(html, 'utf8')),
        contentTypeHeader: 'text/html; charset=utf-8',
        body: '',
        contentType: 'text/html',
        finalUrl: `https://warm-up.example/page/${n}`,
        sourceUrl: `https://warm-up.example/page/${n}`,
        statusCode: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        format: 'markdown',
        onlyMainContent: true,
        links: false,
        formats: ['markdown'],
        jsCheck: true,
        cacheBody: false,
      });
      expect(out.kind).toBe('page');
      const converted = out.kind === 'page' ? out.converted : undefined;
      expect(converted?.ok).toBe(true);
      const markdown = converted?.ok ? (converted.data.markdown ?? '') : '';
      expect(markdown.length).toBeGreaterThan(300);
    }
  });
});
