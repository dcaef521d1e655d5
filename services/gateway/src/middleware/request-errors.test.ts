import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createLogger } from '@wcs/logger';
import express from 'express';
import { errorHandler } from './error.middleware';

/** The gateway's body parser and error handler in front of one route. */
async function start(): Promise<{ url: string; server: Server }> {
  const app = express();
  app.use('/v1', express.json({ limit: 1024, type: () => true, strict: true }));
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
});
