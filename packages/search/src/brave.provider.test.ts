import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SearchProviderError } from '@wcs/errors';
import { BraveProvider, braveSearchLang, plainText } from './brave.provider';

const KEY = 'test-brave-key';
let server: Server;
let base: string;
const seen: Array<{ path: string; params: Record<string, string>; token: string | undefined }> = [];
let mode: 'ok' | 'quota' | 'down' = 'ok';

/** A local fake of the Brave web search endpoint: checks the token, echoes `count` results. */
beforeAll(async () => {
  server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const token = req.headers['x-subscription-token'];
    seen.push({ path: u.pathname, params: Object.fromEntries(u.searchParams), token: token as string });
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (token !== KEY) {
      return json(422, {
        type: 'ErrorResponse',
        error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' },
      });
    }
    if (mode === 'quota') return json(429, { type: 'ErrorResponse', error: { code: 'RATE_LIMITED' } });
    if (mode === 'down') return json(503, { type: 'ErrorResponse', error: { code: 'UNAVAILABLE' } });
    const count = Number(u.searchParams.get('count'));
    json(200, {
      type: 'search',
      query: { original: u.searchParams.get('q') },
      web: {
        type: 'search',
        results: Array.from({ length: count }, (_, i) => ({
          title: `Tidal &amp; <strong>energy</strong> ${i}`,
          url: `https://brave${i}.example/`,
          description: `The <strong>tidal</strong> barrage &#39;${i}&#39;`,
          language: 'en',
        })),
      },
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/res/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const q = { query: 'tidal energy', numResults: 3, accountId: 'a' };

describe('BraveProvider', () => {
  it('sends the key, count, country and search_lang; returns plain-text hits', async () => {
    mode = 'ok';
    const hits = await new BraveProvider({ apiKey: KEY, baseUrl: base, timeoutMs: 2_000 }).search({
      ...q,
      country: 'de',
      lang: 'pt-BR',
    });
    expect(hits).toEqual(
      [0, 1, 2].map((i) => ({
        url: `https://brave${i}.example/`,
        title: `Tidal & energy ${i}`,
        description: `The tidal barrage '${i}'`,
      })),
    );
    expect(seen.at(-1)).toEqual({
      path: '/res/v1/web/search',
      params: { q: 'tidal energy', count: '3', country: 'DE', search_lang: 'pt-br' },
      token: KEY,
    });
  });

  it('a wrong key is a 502 naming BRAVE_API_KEY; quota and outages are clear 502s', async () => {
    const wrong = new BraveProvider({ apiKey: 'nope', baseUrl: base, timeoutMs: 2_000 });
    const err = await wrong.search(q).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchProviderError);
    expect((err as SearchProviderError).status).toBe(502);
    expect((err as SearchProviderError).message).toMatch(
      /rejected BRAVE_API_KEY.*SUBSCRIPTION_TOKEN_INVALID/,
    );

    const p = new BraveProvider({ apiKey: KEY, baseUrl: base, timeoutMs: 2_000 });
    mode = 'quota';
    await expect(p.search(q)).rejects.toThrow(/quota.*HTTP 429/);
    mode = 'down';
    await expect(p.search(q)).rejects.toThrow(/HTTP 503/);
    mode = 'ok';
  });

  it('maps language codes to Brave search_lang and strips markup', () => {
    expect(['en', 'en-GB', 'ja', 'zh-TW', 'zh', 'pt', 'de-AT'].map(braveSearchLang)).toEqual([
      'en',
      'en-gb',
      'jp',
      'zh-hant',
      'zh-hans',
      'pt-pt',
      'de',
    ]);
    expect(plainText('<b>a</b> &lt;b&gt; &#x41; &unknown;')).toBe('a <b> A &unknown;');
  });
});
