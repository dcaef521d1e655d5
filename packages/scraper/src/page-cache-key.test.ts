import { createHash } from 'node:crypto';
import { pageCacheKey } from './page-cache-key';

const url = 'https://example.com/a?b=1';

describe('pageCacheKey', () => {
  test('is the sha256 hex of the canonical JSON, defaults written out', () => {
    const json =
      '{"engine":"auto","location":null,"mobile":false,"proxy":"auto","url":"https://example.com/a?b=1","waitForMs":0}';
    expect(pageCacheKey({ url })).toBe(createHash('sha256').update(json).digest('hex'));
    expect(pageCacheKey({ url })).toMatch(/^[0-9a-f]{64}$/);
  });

  test('spelled-out defaults and key order give the same key', () => {
    const base = pageCacheKey({ url });
    expect(pageCacheKey({ proxy: 'auto', mobile: false, waitForMs: 0, engine: 'auto', url })).toBe(base);
    expect(
      pageCacheKey({ url, location: { languages: ['de-DE'], country: 'de' } }) ===
        pageCacheKey({ location: { country: 'DE', languages: ['de-DE'] }, url }),
    ).toBe(true);
  });

  test('every fetch-changing option changes the key', () => {
    const variants = [
      { url },
      { url: 'https://example.com/a?b=2' },
      { url, engine: 'browser' as const },
      { url, engine: 'fetch' as const },
      { url, waitForMs: 500 },
      { url, mobile: true },
      { url, proxy: 'none' as const },
      { url, proxy: 'default' as const },
      { url, location: { country: 'US' } },
      { url, location: { country: 'DE' } },
      { url, location: { country: 'DE', languages: ['de-DE', 'en'] } },
      { url, location: { country: 'DE', languages: ['en', 'de-DE'] } },
    ];
    const keys = new Set(variants.map(pageCacheKey));
    expect(keys.size).toBe(variants.length);
  });
});
