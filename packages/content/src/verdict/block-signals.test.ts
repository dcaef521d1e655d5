import { detectBlock } from './block-signals';

const answer = (statusCode: number, body: string, headers: Record<string, string> = {}) => ({
  statusCode,
  headers,
  body,
});
const longText = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) => `<p>Paragraph ${i} of a long and ordinary article about gardening.</p>`,
  ).join('');

describe('detectBlock', () => {
  it('keeps 401, 403, 451 (access-denied) and 429 (rate-limited) blocked, naming the vendor its headers show', () => {
    expect(detectBlock(answer(401, 'no'))).toEqual({ reason: 'access-denied' });
    expect(detectBlock(answer(451, 'no'))).toEqual({ reason: 'access-denied' });
    expect(detectBlock(answer(403, 'no', { server: 'AkamaiGHost' }))).toEqual({
      reason: 'access-denied',
      vendor: 'akamai',
    });
    expect(detectBlock(answer(429, 'slow down', { 'cf-ray': 'x' }))).toEqual({
      reason: 'rate-limited',
      vendor: 'cloudflare',
    });
  });

  it('trusts the headers that say a challenge was answered', () => {
    expect(detectBlock(answer(403, '', { 'cf-mitigated': 'challenge' }))).toEqual({
      reason: 'challenge',
      vendor: 'cloudflare',
    });
    expect(detectBlock(answer(405, '', { 'x-amzn-waf-action': 'captcha' }))).toEqual({
      reason: 'captcha',
      vendor: 'aws-waf',
    });
  });

  it('reads a challenge from the markup when the status says nothing (Cloudflare 503, relayed 200)', () => {
    const page =
      '<html><head><title>Just a moment...</title></head><body><noscript>Enable JavaScript and cookies to continue</noscript><script>window._cf_chl_opt={cType:"managed"};</script></body></html>';
    expect(detectBlock(answer(503, page, { server: 'cloudflare' }))).toEqual({
      reason: 'challenge',
      vendor: 'cloudflare',
    });
    expect(detectBlock(answer(200, page))).toEqual({ reason: 'challenge', vendor: 'cloudflare' });
  });

  it('prefers what the page is to what the status says: a 403 captcha page is a captcha', () => {
    const dd = `<html><body><script>var dd={'rt':'c','cid':'x','host':'geo.captcha-delivery.com'}</script></body></html>`;
    expect(detectBlock(answer(403, dd, { 'x-datadome': 'protected' }))).toEqual({
      reason: 'captcha',
      vendor: 'datadome',
    });
  });

  it('does not take vendor markup on a long ordinary page for a wall', () => {
    const body = `<html><head><title>Gardening</title><script src="/_Incapsula_Resource?SWJIYLWA=abc"></script><script src="https://www.google.com/recaptcha/api.js"></script></head><body><h1>Gardening</h1>${longText(80)}<div class="g-recaptcha"></div></body></html>`;
    expect(detectBlock(answer(200, body))).toBeUndefined();
  });

  it('does not read wall wording into a long page that talks about walls', () => {
    const body = `<html><head><title>Verify you are human: why captchas fail</title></head><body>${longText(200)}</body></html>`;
    expect(detectBlock(answer(200, body))).toBeUndefined();
  });

  it('takes a captcha widget on a page saying nothing else for a wall, but not a login form', () => {
    const widget =
      '<script src="https://js.hcaptcha.com/1/api.js"></script><div class="h-captcha" data-sitekey="k"></div>';
    expect(detectBlock(answer(200, `<html><body>${widget}</body></html>`))).toEqual({
      reason: 'captcha',
      vendor: 'hcaptcha',
    });
    expect(
      detectBlock(
        answer(200, `<html><body><form><input type="password" name="p">${widget}</form></body></html>`),
      ),
    ).toBeUndefined();
  });

  it('leaves an ordinary 200 page alone', () => {
    expect(detectBlock(answer(200, `<html><body>${longText(5)}</body></html>`))).toBeUndefined();
  });
});

describe("detectBlock with the body's prefix (a decoded page kept in pieces)", () => {
  it('reads the title from the prefix as from the body, and finds what it finds without it', () => {
    const pages = [
      `<html><head><title>Access denied</title></head><body>${'<i></i>'.repeat(20_000)}</body></html>`,
      `<html><head><style>${'.a{}'.repeat(15_000)}</style><title>Just a moment...</title></head><body><p>x</p></body></html>`,
      '<html><head><title>Attention Required! | Cloudflare</title></head><body>Sorry, you have been blocked</body></html>',
      `<html><body>${'<p>ordinary words</p>'.repeat(5_000)}</body></html>`,
    ];
    for (const body of pages)
      for (const statusCode of [200, 403, 503]) {
        const plain = detectBlock({ statusCode, headers: {}, body });
        const asked: number[] = [];
        const prefix = (chars: number) => {
          asked.push(chars);
          return body.slice(0, chars);
        };
        expect(detectBlock({ statusCode, headers: {}, body, prefix })).toEqual(plain);
        expect(asked.every((n) => n <= 65_536)).toBe(true);
      }
  });
});
