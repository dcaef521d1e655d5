import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createLogger } from '@wcs/logger';
import express from 'express';
import { errorHandler } from './error.middleware';
import { jsonBody } from './json-body.middleware';
import { urlTextMiddleware } from './url-text.middleware';

/** The gateway's URL check, body parser and error handler in front of one route. */
async function start(): Promise<{ url: string; server: Server }> {
  const app = express();
  app.use(urlTextMiddleware);
  app.use('/v1', jsonBody(1024));
  app.post('/v1/crawl/:id', (req, res) => {
    res.json({ id: req.params.id, body: req.body as unknown });
  });
  app.get('/v1/crawl/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  app.use(errorHandler(createLogger({ service: 'test', level: 'silent' })));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('client mistakes before the handlers are 4xx with a code', () => {
  let url: string;
  let server: Server;
  beforeAll(async () => {
    ({ url, server } = await start());
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const post = (headers: Record<string, string>, body: Uint8Array | string) =>
    fetch(`${url}/v1/crawl/x`, { method: 'POST', headers, body });

  it.each(['gzip', 'deflate', 'br'])('a body declared %s that is not: 400 INVALID_JSON', async (enc) => {
    const res = await post({ 'content-type': 'application/json', 'content-encoding': enc }, '{"a":1}');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { success: boolean; code: string; error: string };
    expect(body).toMatchObject({ success: false, code: 'INVALID_JSON' });
    expect(body.error).toMatch(/could not be decompressed as its Content-Encoding declares/);
  });

  it('a truncated gzip body: 400; a real gzip body still parses', async () => {
    const gz = gzipSync('{"a":1}');
    expect((await post({ 'content-encoding': 'gzip' }, gz.subarray(0, 12))).status).toBe(400);
    const ok = await post({ 'content-encoding': 'gzip' }, gz);
    expect(await ok.json()).toEqual({ id: 'x', body: { a: 1 } });
  });

  it('an unknown encoding or charset: 415 UNSUPPORTED_CONTENT_TYPE', async () => {
    const cases: Array<Record<string, string>> = [
      { 'content-encoding': 'zstd-ish' },
      { 'content-type': 'application/json; charset=nope' },
    ];
    for (const headers of cases) {
      const res = await post(headers, '{"a":1}');
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({ success: false, code: 'UNSUPPORTED_CONTENT_TYPE' });
    }
  });

  it('a gzip body inflating past the limit: 413', async () => {
    const res = await post({ 'content-encoding': 'gzip' }, gzipSync(`"${' '.repeat(1_000_000)}"`));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('a malformed percent escape in a path parameter: 400 VALIDATION_FAILED', async () => {
    const res = await fetch(`${url}/v1/crawl/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      success: false,
      code: 'VALIDATION_FAILED',
      error: 'Malformed percent-encoding in the request path',
    });
  });

  it('bytes that are not UTF-8: 400 VALIDATION_FAILED at the first bad byte; good UTF-8 and UTF-16 parse', async () => {
    const cases: Array<[number[], number]> = [
      [[0x22, 0xff, 0x22], 1], // never a UTF-8 byte
      [[0x22, 0x41, 0x80, 0x22], 2], // a continuation byte alone
      [[0x22, 0xc0, 0xaf, 0x22], 1], // overlong "/"
      [[0x22, 0xed, 0xa0, 0x80, 0x22], 1], // a surrogate encoded (CESU-8)
      [[0x22, 0xf4, 0x90, 0x80, 0x80, 0x22], 1], // past U+10FFFF
      [[0x22, 0xe2, 0x82, 0x22], 1], // cut short
    ];
    for (const [bytes, offset] of cases) {
      const res = await post({ 'content-type': 'application/json' }, Uint8Array.from(bytes));
      expect([bytes, res.status, await res.json()]).toEqual([
        bytes,
        400,
        {
          success: false,
          code: 'VALIDATION_FAILED',
          error: `body: not valid UTF-8 (byte ${offset} starts no valid sequence); send well-formed text`,
          details: { field: 'body', offset },
        },
      ]);
    }
    const good = await post({}, Buffer.from('{"a":"é𝕏€"}'));
    expect(await good.json()).toEqual({ id: 'x', body: { a: 'é𝕏€' } });
    const utf16 = await post(
      { 'content-type': 'application/json; charset=utf-16le' },
      Buffer.from('{"a":"é"}', 'utf16le'),
    );
    expect(await utf16.json()).toEqual({ id: 'x', body: { a: 'é' } });
  });

  it('a NUL in the path or the query: 400 naming where; "%2500" is text, not a NUL', async () => {
    const path = await fetch(`${url}/v1/crawl/a%00`);
    expect([path.status, await path.json()]).toEqual([
      400,
      {
        success: false,
        code: 'VALIDATION_FAILED',
        error: 'path: contains a NUL character (\\u0000), which text cannot hold',
        details: { field: 'path' },
      },
    ]);
    const query = await fetch(`${url}/v1/crawl/a?skip=0&x=1&x=%00`);
    expect([query.status, ((await query.json()) as { error: string }).error]).toEqual([
      400,
      'x.1: contains a NUL character (\\u0000), which text cannot hold',
    ]);
    const text = await fetch(`${url}/v1/crawl/%2500?q=%2500&u=%C3%A9`);
    expect(await text.json()).toEqual({ id: '%00' });
    // Escapes that decode to no UTF-8 would become U+FFFD: refused like such bytes in a body.
    const bytes = await fetch(`${url}/v1/crawl/a?ok=%C3%A9&q=%ED%A0%80`);
    expect([bytes.status, await bytes.json()]).toEqual([
      400,
      {
        success: false,
        code: 'VALIDATION_FAILED',
        error:
          'query: not valid UTF-8 once percent-decoded (byte 8 starts no valid sequence); send well-formed text',
        details: { field: 'query', offset: 8 },
      },
    ]);
  });
});
