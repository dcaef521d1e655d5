import { processDocument } from '../document.processor';
import type { VerdictResult } from './verdict.types';

const judge = (
  body: string,
  statusCode = 200,
  headers: Record<string, string> = {},
  contentType = 'text/html',
): VerdictResult =>
  processDocument(
    { body, contentType, url: 'https://site.test/page', statusCode },
    { formats: ['markdown'], headers },
  ).verdict;

const prose = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i}: teams that ship web products spend a surprising amount of time on pages nobody plans for, and the way a site fails says a lot.</p>`,
  ).join('');

describe('judgePage (through processDocument)', () => {
  it('calls a 200 page titled "404 Not Found" / "Page not found" with a short body a soft 404', () => {
    expect(
      judge(
        '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>',
      ),
    ).toEqual({
      verdict: 'soft-404',
      shownStatus: 404,
      signals: ['title:not-found'],
    });
    expect(
      judge('<html><head><title>Page not found</title></head><body><p>Sorry.</p></body></html>').verdict,
    ).toBe('soft-404');
  });

  it('reads "not found" in the languages the service meets', () => {
    for (const title of [
      'Seite nicht gefunden',
      'Page introuvable',
      'Página no encontrada',
      'Pagina non trovata',
      'Página não encontrada',
      'Pagina niet gevonden',
      'Nie znaleziono strony',
      'Страница не найдена',
      'ページが見つかりません',
      '页面不存在',
    ])
      expect(
        judge(`<html><head><title>${title} | Site</title></head><body><p>…</p></body></html>`).verdict,
      ).toBe('soft-404');
  });

  it("calls nginx's 502 page served with 200 an error page showing 502", () => {
    const v = judge(
      '<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>',
    );
    expect(v).toMatchObject({ verdict: 'error-page', shownStatus: 502 });
  });

  it('calls "This domain is for sale" parked', () => {
    expect(
      judge(
        '<html><head><title>example.test</title></head><body><h1>This domain is for sale!</h1><p>Make an offer.</p></body></html>',
      ).verdict,
    ).toBe('parked');
  });

  it('calls a page that is only a login form a login wall', () => {
    expect(
      judge(
        '<html><head><title>Sign in</title></head><body><form><input name="u"><input type="password" name="p"><button>Sign in</button></form></body></html>',
      ).verdict,
    ).toBe('login-wall');
  });

  it('calls an app shell empty', () => {
    expect(judge('<html><body><div id="root"></div><script src="/app.js"></script></body></html>')).toEqual({
      verdict: 'empty',
      signals: ['no-text'],
    });
  });

  it("blocks Cloudflare's challenge with cf-mitigated, or server: cloudflare and 403/503", () => {
    const page =
      '<html><head><title>Just a moment...</title></head><body><noscript>Enable JavaScript and cookies to continue</noscript></body></html>';
    const cf = { reason: 'challenge', vendor: 'cloudflare' };
    expect(judge(page, 403, { 'cf-mitigated': 'challenge' }).block).toEqual(cf);
    expect(judge(page, 403, { server: 'cloudflare' }).block).toEqual(cf);
    expect(judge(page, 503, { server: 'cloudflare' }).block).toEqual(cf);
  });

  it('keeps long pages about 404s, server errors, captchas and signing in as content', () => {
    for (const title of [
      'Page not found: designing 404 pages',
      '502 Bad Gateway explained',
      'Please verify you are a human',
      'Sign in safely',
    ])
      expect(
        judge(
          `<html><head><title>${title}</title></head><body><article><h1>${title}</h1>${prose(12)}</article><form><input type="password"></form></body></html>`,
        ).verdict,
      ).toBe('content');
  });

  it('keeps a short real page and a long page with a reCAPTCHA comment form as content', () => {
    expect(
      judge(
        '<html><head><title>About us</title></head><body><h1>About us</h1><p>We have baked bread on Mill Street since 1987, by hand, in a stone oven.</p></body></html>',
      ).verdict,
    ).toBe('content');
    expect(
      judge(
        `<html><head><title>Tomatoes</title><script src="https://www.google.com/recaptcha/api.js"></script></head><body><article>${prose(10)}</article><form><div class="g-recaptcha"></div></form></body></html>`,
      ).verdict,
    ).toBe('content');
  });

  it('leaves other statuses to the caller: a 404 or 500 answer is not re-judged from its page', () => {
    expect(judge('<html><head><title>404 Not Found</title></head><body></body></html>', 404).verdict).toBe(
      'content',
    );
    expect(
      judge('<html><head><title>500 Internal Server Error</title></head><body></body></html>', 500).verdict,
    ).toBe('content');
  });

  it('judges text by its words and JSON on walls only', () => {
    expect(judge('404 page not found\n', 200, {}, 'text/plain')).toMatchObject({
      verdict: 'soft-404',
      shownStatus: 404,
    });
    expect(judge('   ', 200, {}, 'text/plain').verdict).toBe('empty');
    expect(judge('{}', 200, {}, 'application/json').verdict).toBe('content');
    expect(judge('{"error":"slow down"}', 429, {}, 'application/json').block).toEqual({
      reason: 'rate-limited',
    });
  });

  it('does not change what is extracted', () => {
    const html = `<html><head><title>Page not found</title></head><body><h1>Page not found</h1><p>Sorry.</p></body></html>`;
    const out = processDocument(
      { body: html, contentType: 'text/html', url: 'https://site.test/x', statusCode: 200 },
      { formats: ['markdown'] },
    );
    expect(out.markdown).toContain('Sorry.');
  });
});
