import { processDocument } from '../document.processor';
import type { VerdictResult } from './verdict.types';

const judge = (body: string, statusCode = 200): VerdictResult =>
  processDocument(
    { body, contentType: 'text/html', url: 'https://site.test/page', statusCode },
    { formats: ['markdown'] },
  ).verdict;

const page = (title: string, main: string, extra = ''): string =>
  `<html><head><title>${title}</title></head><body><header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav></header><main>${main}</main>${extra}<footer><p>Terms · Privacy · Contact · Careers · Press</p></footer></body></html>`;

const words = (n: number): string => Array.from({ length: n }, (_, i) => `word${i % 17}`).join(' ');

describe('judgePage: pages that name a status without being one', () => {
  it('reads a quoted status in a title or heading as a mention', () => {
    const body = `<h1>Why the portal says «pagina non trovata»</h1><p>${words(60)}</p>`;
    expect(judge(page('Il Quotidiano', body)).verdict).toBe('content');
    // the same heading unquoted is the page's own message
    expect(judge(page('Il Quotidiano', `<h1>Pagina non trovata</h1><p>${words(20)}</p>`)).verdict).toBe(
      'soft-404',
    );
  });

  it('does not take a title starting with "404" followed by more of a word for a not-found line', () => {
    const para =
      '<p>存在しないURLにアクセスしたとき、ページが表示されます。本記事では、その作り方を解説します。</p>';
    const main = `<h1>404ページの作り方</h1>${para.repeat(4)}`;
    expect(judge(page('404ページの作り方とSEO', main)).verdict).toBe('content');
    expect(judge(page('404 | 開発ノート', main)).verdict).toBe('soft-404');
  });

  it("reads a question, a how-to, a sentence going on past the status or a work's name as talk about it", () => {
    const q = `<p>${words(50)}</p>`;
    for (const line of [
      'How do I fix a 404 Not Found error in Express?',
      'Why does nginx return 502 Bad Gateway?',
      '500 Internal Server Error after upgrading to PHP 8.3',
      'Cómo solucionar el error 404 página no encontrada',
    ])
      expect(judge(page(`${line} - Q&A`, `<h1>${line}</h1>${q}`)).verdict).toBe('content');
    expect(judge(page('Error 404 (album) | Music', `<h1>Error 404</h1>${q}`)).verdict).toBe('content');
    expect(
      judge(page('Access Denied (2019 film)', `<h1>Access Denied</h1><p>${words(30)}</p>`)).verdict,
    ).toBe('content');
    // the same lines as a page's own message
    expect(judge(page("Can't find that page | Site", `<h1>Page not found</h1>${q}`)).verdict).toBe(
      'soft-404',
    );
    expect(judge(page('502 Bad Gateway', `<h1>502 Bad Gateway</h1>${q}`)).verdict).toBe('error-page');
  });
});

describe('judgePage: walls and errors the short-title rules miss', () => {
  it('calls a captcha gate inside site chrome blocked only when the widget is there', () => {
    const main = `<h1>Are you a robot?</h1><p>${words(40)}</p>`;
    const widget = '<div class="g-recaptcha" data-sitekey="k"></div>';
    // a site's chrome: link lists the extraction leaves out, but words on the page
    const links = Array.from(
      { length: 30 },
      (_, i) => `<li><a href="/s/${i}">Section number ${i} stories</a></li>`,
    );
    const chrome = `<aside><ul>${links.join('')}</ul></aside>`;
    expect(judge(page('Are you a robot? | Paper', main + widget, chrome)).verdict).toBe('blocked');
    expect(judge(page('Are you a robot? | Paper', main, chrome)).verdict).toBe('content');
  });

  it('reads the status of a CDN or framework default error page from its markup', () => {
    const cf = `<div id="cf-error-details"><h1><span>Connection timed out</span> <span class="code-label">Error code 522</span></h1><p>${words(140)}</p></div>`;
    expect(judge(page('site.test | 522: Connection timed out', cf))).toMatchObject({
      verdict: 'error-page',
      shownStatus: 522,
    });
    const spring =
      '<h1>Whitelabel Error Page</h1><p>This application has no explicit mapping for /error.</p><div>There was an unexpected error (type=Not Found, status=404).</div>';
    expect(judge(`<html><body>${spring}</body></html>`)).toMatchObject({ verdict: 'soft-404' });
  });

  it('calls a two-step sign-in page (account field, no password yet) a login wall', () => {
    const form = '<form><input type="email" name="loginfmt"><input type="submit" value="Next"></form>';
    expect(judge(page('Sign in to your account', form)).verdict).toBe('login-wall');
    // a headline starting with "Login" is not a sign-in line
    expect(
      judge(
        page('Login required: why your TV now wants an account for everything', `${form}<p>${words(40)}</p>`),
      ).verdict,
    ).toBe('content');
  });

  it('calls an article cut off under "Sign in to continue reading" a login wall, not a long one', () => {
    const wall = '<div><h2>Sign in to continue reading</h2><p>Create a free account or sign in.</p></div>';
    expect(judge(page('Zoning fight', `<article><p>${words(30)}</p>${wall}</article>`)).verdict).toBe(
      'login-wall',
    );
    expect(judge(page('Zoning fight', `<article><p>${words(400)}</p>${wall}</article>`)).verdict).toBe(
      'content',
    );
  });

  it("reads the size limits on the words outside links: a real site's menus and footer are hundreds", () => {
    const menu = Array.from({ length: 140 }, (_, i) => `<li><a href="/c${i}">Category number ${i}</a></li>`);
    const heavy = (title: string, main: string): string =>
      `<html><head><title>${title}</title></head><body><nav><ul>${menu.join('')}</ul></nav><main>${main}</main></body></html>`;
    const login =
      '<h1>Sign in to your account</h1><form><input type="email" autocomplete="username"><input type="password"><button>Sign in</button></form>';
    expect(judge(heavy('Sign in | Big Shop', login)).verdict).toBe('login-wall');
    expect(
      judge(heavy('Service Unavailable | Big Shop', '<h1>Something went wrong</h1><p>Try again.</p>'))
        .verdict,
    ).toBe('error-page');
    // the same title over a page of prose is a page about it
    const prose = `<aside><p>${words(400)}</p></aside>`;
    expect(
      judge(heavy('Service Unavailable | Big Shop', `<h1>Something went wrong</h1><p>Try again.</p>${prose}`))
        .verdict,
    ).toBe('content');
  });
});
