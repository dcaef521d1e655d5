import { brotliDecompressSync } from 'node:zlib';
import type { RenderResult } from '@wcs/renderer';
import { ContentPool } from './content-pool';
import { warmUpPage } from './content-warm-up-pages';
import type { CompressedBody } from './page-body-codec';
import { RawPageInspector } from './raw-page-inspector';

/**
 * The page cache's copy of an undecoded answer comes from the content thread that decodes it, on a
 * port of its own before the conversion (so the cache write overlaps the conversion), and only for
 * what the cache may keep.
 */
describe('RawPageInspector: the body for the page cache', () => {
  const pool = new ContentPool({ threads: 1, idleTimeoutMs: 60_000, taskTimeoutMs: 30_000, heapMb: 256 });
  afterAll(() => pool.close());

  const answer = (html: string, over: Partial<RenderResult> = {}): RenderResult => ({
    requestedUrl: 'https://site.example/a',
    finalUrl: 'https://site.example/a',
    statusCode: 200,
    contentType: 'text/html',
    body: '',
    raw: { bytes: Buffer.from(html, 'utf8'), contentTypeHeader: 'text/html; charset=utf-8' },
    engine: 'fetch',
    headers: { 'content-type': 'text/html; charset=utf-8' },
    redirects: [],
    elapsedMs: 1,
    ...over,
  });

  const inspectorWith = (told: Array<Promise<CompressedBody | undefined>>) =>
    new RawPageInspector(pool, {
      conversion: {
        sourceUrl: 'https://site.example/a',
        format: 'markdown',
        onlyMainContent: true,
        links: false,
      },
      cacheBody: (_page, body) => told.push(body),
    });

  it('hands the compressed body over apart from the result, which converted the page as before', async () => {
    const html = warmUpPage(3);
    const told: Array<Promise<CompressedBody | undefined>> = [];
    const inspector = inspectorWith(told);
    const page = answer(html);
    const found = await inspector.inspect(page);
    expect(told).toHaveLength(1);
    const body = await told[0];
    expect(body?.size).toBe(Buffer.byteLength(html));
    expect(brotliDecompressSync(body?.bytes ?? new Uint8Array()).toString('utf8')).toBe(html);
    // The copy travelled once: the result says where it went instead of carrying it again.
    expect(found).toMatchObject({ kind: 'page', cachedSent: true });
    expect(found.kind === 'page' && found.cached).toBeFalsy();
    expect(found.kind === 'page' && found.converted?.ok).toBe(true);
    // Asked again (the ladder, then the scraper), the answer is inspected and reported once.
    await inspector.inspect(page);
    expect(told).toHaveLength(1);
  });

  it('tells of no body for an answer the cache must not keep (not 2xx)', async () => {
    const told: Array<Promise<CompressedBody | undefined>> = [];
    await inspectorWith(told).inspect(answer(warmUpPage(4), { statusCode: 404 }));
    expect(told).toHaveLength(1);
    await expect(told[0]).resolves.toBeUndefined();
  });

  it('without the hook, no body is made', async () => {
    const inspector = new RawPageInspector(pool, {
      conversion: {
        sourceUrl: 'https://site.example/a',
        format: 'markdown',
        onlyMainContent: true,
        links: false,
      },
    });
    const found = await inspector.inspect(answer(warmUpPage(5)));
    expect(found).toMatchObject({ kind: 'page' });
    expect(found.kind === 'page' && (found.cached ?? found.cachedSent)).toBeFalsy();
  });
});
