import { ValidationError } from '@wcs/errors';
import {
  FIRECRAWL_V2_DEFAULT_MAX_AGE_MS,
  firecrawlScrapeOptionsV2,
  toNativePageFields,
  toNativePageFieldsV1,
} from './scrape-options.compat';

/** The ValidationError `fn` throws (fails the test if it returns or throws something else). */
function refusal(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('expected a ValidationError');
}

describe('toNativePageFields (v2)', () => {
  it('maps string and object formats to native formats, markdown by default', () => {
    expect(toNativePageFields({}).page).toEqual({ formats: ['markdown'] });
    const t = toNativePageFields({
      formats: [
        'markdown',
        { type: 'html' },
        'rawHtml',
        'links',
        'images',
        { type: 'screenshot', fullPage: true },
      ],
      onlyMainContent: false,
      includeTags: ['main'],
      waitFor: 500,
      maxAge: 0,
    });
    expect(t.page).toEqual({
      formats: ['markdown', 'html', 'rawHtml', 'links', 'images', 'screenshot@fullPage'],
      onlyMainContent: false,
      includeTags: ['main'],
      waitFor: 500,
      maxAge: 0,
    });
    expect(t.wanted).toEqual(['markdown', 'html', 'rawHtml', 'links', 'images', 'screenshot']);
    expect(t.json).toBeUndefined();
  });

  it('a json format becomes an extraction with a plain schema; json alone still scrapes markdown', () => {
    const t = toNativePageFields({
      formats: [
        {
          type: 'json',
          prompt: ' The title ',
          schema: { type: 'object', properties: { title: { type: 'string' }, n: { type: 'integer' } } },
        },
      ],
    });
    expect(t.json).toEqual({
      field: 'formats.0',
      prompt: 'The title',
      schema: { title: 'string', n: 'number' },
    });
    expect(t.page.formats).toEqual(['markdown']);
    expect(t.wanted).toEqual(['json']);
  });

  it('refuses what it cannot honour, naming the caller field', () => {
    expect(refusal(() => toNativePageFields({ proxy: 'stealth' })).message).toMatch(/^proxy: "stealth"/);
    // There is no stealthier pool, and nothing forges a fingerprint: stealth is refused.
    expect(refusal(() => toNativePageFields({ proxy: 'stealth' })).message).toBe(
      'proxy: "stealth" is not supported; "basic" (every request through the deployment\'s PROXY_URLS, direct when none are set) and "auto" (direct first, then through PROXY_URLS when a wall answers) are',
    );
    expect(refusal(() => toNativePageFieldsV1({ proxy: 'residential' })).message).toMatch(
      /^proxy: "residential"/,
    );
    expect(refusal(() => toNativePageFields({ formats: ['markdown', 'html', 'branding'] })).message).toMatch(
      /^formats\.2: the "branding" format is not supported/,
    );
    // summary is a native format (the extract model's).
    expect(toNativePageFields({ formats: ['markdown', 'summary'] }).page.formats).toEqual([
      'markdown',
      'summary',
    ]);
    expect(refusal(() => toNativePageFields({ formats: ['json'] })).message).toMatch(
      /^formats\.0: the json format is an object/,
    );
    expect(
      refusal(() => toNativePageFields({ formats: [{ type: 'changeTracking', colour: 'red' }] })).message,
    ).toMatch(/^formats\.0\.colour: is not supported/);
    expect(
      refusal(() => toNativePageFields({ formats: ['changeTracking', { type: 'changeTracking' }] })).message,
    ).toMatch(/^formats\.1: give the changeTracking format once/);
    expect(
      refusal(() => toNativePageFields({ formats: [{ type: 'screenshot', quality: 50 }] })).message,
    ).toMatch(/^formats\.0\.quality: is not supported/);
    expect(refusal(() => toNativePageFields({ parsers: [] })).message).toMatch(/^parsers:/);
    expect(refusal(() => toNativePageFields({ parsers: [{ type: 'pdf', maxPages: 2 }] })).message).toMatch(
      /^parsers\.0\.maxPages/,
    );
    expect(refusal(() => toNativePageFields({ skipTlsVerification: true })).message).toMatch(
      /^skipTlsVerification/,
    );
    expect(
      refusal(() => toNativePageFields({ actions: [{ type: 'wait', milliseconds: 1 }, { type: 'pdf' }] }))
        .message,
    ).toMatch(/^actions\.1\.type: the "pdf" action/);
    expect(refusal(() => toNativePageFields({ fastMode: true })).message).toMatch(
      /^fastMode: is not supported/,
    );
    expect(
      refusal(() =>
        toNativePageFields({ formats: [{ type: 'json', prompt: 'p', checkPromptInjection: true }] }),
      ).message,
    ).toMatch(/^formats\.0\.checkPromptInjection/);
    expect(
      refusal(() =>
        toNativePageFields(
          { formats: [{ type: 'json', prompt: 'x' }] },
          { prefix: 'scrapeOptions.', allowJson: false },
        ),
      ).message,
    ).toMatch(/^scrapeOptions\.formats\.0: the json format/);
  });

  it('maps proxy: basic → default (every request through PROXY_URLS), auto → auto, omitted → the native default', () => {
    expect(toNativePageFields({ proxy: 'basic' }).page.proxy).toBe('default');
    expect(toNativePageFields({ proxy: 'auto' }).page.proxy).toBe('auto');
    expect(toNativePageFieldsV1({ proxy: 'auto' }).page.proxy).toBe('auto');
    expect(toNativePageFields({}).page).not.toHaveProperty('proxy');
  });

  it('accepts the values that match what the service does', () => {
    expect(() =>
      toNativePageFields({
        proxy: 'basic',
        parsers: ['pdf', { type: 'pdf' }],
        removeBase64Images: true,
        blockAds: false,
        storeInCache: true,
        skipTlsVerification: false,
        fastMode: false,
        origin: 'js-sdk@4.42.0',
      }),
    ).not.toThrow();
  });

  it("page cache: v2's default maxAge where the caller asks for it, storeInCache passed on", () => {
    const v2 = { defaultMaxAge: FIRECRAWL_V2_DEFAULT_MAX_AGE_MS };
    expect(FIRECRAWL_V2_DEFAULT_MAX_AGE_MS).toBe(2 * 24 * 3600 * 1000);
    expect(toNativePageFields({}, v2).page.maxAge).toBe(172_800_000);
    expect(toNativePageFields({ maxAge: 0 }, v2).page.maxAge).toBe(0);
    expect(toNativePageFields({}).page.maxAge).toBeUndefined();
    expect(toNativePageFieldsV1({}).page.maxAge).toBeUndefined();
    expect(toNativePageFields({ storeInCache: false }, v2).page).toMatchObject({ storeInCache: false });
    expect(toNativePageFieldsV1({ storeInCache: false }).page).toMatchObject({ storeInCache: false });
  });

  it('changeTracking: the format object becomes changeTrackingOptions, and no default maxAge applies', () => {
    const v2 = { defaultMaxAge: FIRECRAWL_V2_DEFAULT_MAX_AGE_MS };
    const t = toNativePageFields(
      { formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'], tag: 'daily' }] },
      v2,
    );
    expect(t.page.formats).toEqual(['markdown', 'changeTracking']);
    expect(t.page.changeTrackingOptions).toEqual({ modes: ['git-diff'], tag: 'daily' });
    expect(t.page.maxAge).toBeUndefined();
    expect(t.wanted).toEqual(['markdown', 'changeTracking']);
    const plain = toNativePageFields({ formats: ['markdown', 'changeTracking'] }, v2);
    expect(plain.page.changeTrackingOptions).toBeUndefined();
    // A maxAge the caller gives is theirs (a cached copy is then what is compared).
    expect(toNativePageFields({ formats: ['markdown', 'changeTracking'], maxAge: 5 }, v2).page.maxAge).toBe(
      5,
    );
  });

  it('the schema rejects unknown fields (strict, like Firecrawl)', () => {
    expect(firecrawlScrapeOptionsV2.safeParse({ onlyMainContnet: true }).success).toBe(false);
  });
});

describe('toNativePageFieldsV1', () => {
  it('reads v1 names: screenshot@fullPage, json with jsonOptions, extract with extract', () => {
    const t = toNativePageFieldsV1({
      formats: ['markdown', 'screenshot@fullPage', 'json'],
      jsonOptions: { prompt: 'p', schema: { type: 'object', properties: { a: { type: 'boolean' } } } },
    });
    expect(t.page.formats).toEqual(['markdown', 'screenshot@fullPage']);
    expect(t.json).toEqual({ field: 'jsonOptions', prompt: 'p', schema: { a: 'boolean' } });
    expect(toNativePageFieldsV1({ formats: ['extract'], extract: { prompt: 'q' } }).json?.field).toBe(
      'extract',
    );
  });

  it('refuses a json format without its options, and v1-only unsupported options', () => {
    expect(refusal(() => toNativePageFieldsV1({ formats: ['json'] })).message).toMatch(
      /^formats\.0: the json format needs jsonOptions/,
    );
    expect(refusal(() => toNativePageFieldsV1({ formats: ['content'] })).message).toMatch(/^formats\.0:/);
    expect(refusal(() => toNativePageFieldsV1({ parsePDF: false })).message).toMatch(/^parsePDF/);
    expect(refusal(() => toNativePageFieldsV1({ agent: { model: 'FIRE-1' } })).message).toMatch(/^agent/);
  });

  it('changeTracking with changeTrackingOptions, passed on for the native schema to check', () => {
    const t = toNativePageFieldsV1({
      formats: ['markdown', 'changeTracking'],
      changeTrackingOptions: { modes: ['git-diff'], tag: 't' },
    });
    expect(t.page.formats).toEqual(['markdown', 'changeTracking']);
    expect(t.page.changeTrackingOptions).toEqual({ modes: ['git-diff'], tag: 't' });
  });
});
