import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { ActionFailedError, TargetTooLargeError, UnsupportedContentTypeError } from '@wcs/errors';
import { createRenderer } from './renderer';
import { testOptions } from './test-support/options';
import type { Renderer } from './types';

/** A ZIP local file header naming `name` (sizes zero, as with a data descriptor), then `data`. */
function zipEntry(name: string, data: Uint8Array = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(Buffer.byteLength(name), 26);
  return Buffer.concat([header, Buffer.from(name), data]);
}

const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
  Buffer.alloc(20_000, 0x41),
]);
// The word/ entry comes after 3 KiB of other entries: found only by reading past the first KiB.
const DOCX = Buffer.concat([
  zipEntry('[Content_Types].xml', Buffer.alloc(1500, 0x20)),
  zipEntry('_rels/.rels', Buffer.alloc(1500, 0x20)),
  zipEntry('word/document.xml', Buffer.alloc(500, 0x20)),
]);
const XLSX = Buffer.concat([
  zipEntry('[Content_Types].xml'),
  zipEntry('xl/workbook.xml', Buffer.alloc(4000)),
]);
const BIG_PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(300_000, 0x41)]);
/** 8 MiB of PDF in ~8 KB of gzip: the document cap (200,000) must count decoded bytes. */
const GZIP_BOMB_PDF = gzipSync(
  Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(8 * 1024 * 1024, 0x20)]),
);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const bodies: Record<string, [Buffer, Record<string, string>]> = {
  '/a.pdf': [PDF, { 'content-type': 'application/pdf' }],
  '/octet': [PDF, { 'content-type': 'application/octet-stream' }],
  '/untyped': [PDF, {}],
  '/doc.docx': [DOCX, { 'content-type': DOCX_TYPE }],
  '/docx-as-zip': [DOCX, { 'content-type': 'application/zip' }],
  '/xlsx-as-octet': [XLSX, { 'content-type': 'application/octet-stream' }],
  '/big.pdf': [BIG_PDF, { 'content-type': 'application/pdf' }],
  '/big-chunked.pdf': [BIG_PDF, { 'content-type': 'application/pdf', 'transfer-encoding': 'chunked' }],
  '/gzip-bomb.pdf': [GZIP_BOMB_PDF, { 'content-type': 'application/pdf', 'content-encoding': 'gzip' }],
  '/big.html': [
    Buffer.from(`<html><body>${'x'.repeat(150_000)}</body></html>`),
    { 'content-type': 'text/html' },
  ],
  '/png': [PNG, { 'content-type': 'image/png' }],
  '/page': [Buffer.from('<html><body><p>A page</p></body></html>'), { 'content-type': 'text/html' }],
};

let server: Server;
let base: string;
let renderer: Renderer;

beforeAll(async () => {
  server = createServer((req, res) => {
    const entry = bodies[req.url ?? ''];
    if (!entry) return void res.writeHead(404).end();
    const [body, headers] = entry;
    // Chunked: no Content-Length, so the cap is hit while reading, not from the header.
    if (headers['transfer-encoding']) {
      res.writeHead(200, { 'content-type': headers['content-type'] ?? '' });
      for (let i = 0; i < body.length; i += 16_384) res.write(body.subarray(i, i + 16_384));
      return void res.end();
    }
    res.writeHead(200, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  renderer = createRenderer(
    testOptions({
      maxBodyBytes: 100_000,
      maxDocumentBytes: 200_000,
      fetchTimeoutMs: 15_000,
      browser: { enabled: true, executablePath: '/usr/bin/chromium', maxPages: 1 },
    }),
  );
});
afterAll(async () => {
  await renderer.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('documents: fetch engine', () => {
  it.each([
    ['/a.pdf', 'pdf', 'application/pdf', PDF],
    ['/octet', 'pdf', 'application/pdf', PDF],
    ['/untyped', 'pdf', 'application/pdf', PDF],
    ['/doc.docx', 'docx', DOCX_TYPE, DOCX],
    ['/docx-as-zip', 'docx', DOCX_TYPE, DOCX],
  ])('%s is a %s, returned as its bytes', async (path, kind, type, bytes) => {
    const res = await renderer.render({ url: `${base}${path}`, engine: 'fetch' });
    expect(res).toMatchObject({
      engine: 'fetch',
      statusCode: 200,
      contentType: type,
      body: '',
      documentKind: kind,
    });
    expect(res.bytes?.equals(bytes)).toBe(true);
  });

  it.each(['/xlsx-as-octet', '/png'])('%s is still 415', async (path) => {
    const err = await renderer.render({ url: `${base}${path}`, engine: 'fetch' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedContentTypeError);
  });

  it('a document may pass MAX_BODY_BYTES but not MAX_DOCUMENT_BYTES', async () => {
    // The gzip one is ~8 KB on the wire: only its decoded size passes the cap.
    for (const path of ['/big.pdf', '/big-chunked.pdf', '/gzip-bomb.pdf']) {
      const err = await renderer.render({ url: `${base}${path}`, engine: 'fetch' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TargetTooLargeError);
      expect((err as TargetTooLargeError).status).toBe(502);
      expect((err as Error).message).toMatch(
        /PDF document .* exceeds the 200000 byte document limit \(MAX_DOCUMENT_BYTES\)/,
      );
    }
  });

  it('text keeps MAX_BODY_BYTES', async () => {
    const err = await renderer.render({ url: `${base}/big.html`, engine: 'fetch' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetTooLargeError);
    expect((err as Error).message).toMatch(/exceeds the 100000 byte limit/);
  });
});

describe('documents: never through Chromium', () => {
  it.each(['/a.pdf', '/octet', '/untyped', '/doc.docx'])(
    'engine browser: %s is fetched instead',
    async (path) => {
      const res = await renderer.render({ url: `${base}${path}`, engine: 'browser' });
      expect(res.engine).toBe('fetch');
      expect(res.bytes?.length).toBe(bodies[path]![0].length);
      expect(res.body).toBe('');
    },
  );

  it('auto: a document is never upgraded to the browser', async () => {
    const res = await renderer.render({ url: `${base}/a.pdf`, waitForMs: 10 });
    expect(res).toMatchObject({ engine: 'fetch', contentType: 'application/pdf' });
  });

  it('a screenshot is ignored on a document; actions are refused (422)', async () => {
    const shot = await renderer.render({ url: `${base}/a.pdf`, screenshot: 'viewport' });
    expect(shot.screenshot).toBeUndefined();
    expect(shot.bytes?.equals(PDF)).toBe(true);
    const err = await renderer
      .render({ url: `${base}/a.pdf`, actions: [{ type: 'wait', milliseconds: 1 }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionFailedError);
    expect((err as ActionFailedError).status).toBe(422);
    expect((err as Error).message).toContain('is application/pdf, not a web page');
  });

  it('a page and a picture keep their browser outcome', async () => {
    const page = await renderer.render({ url: `${base}/page`, engine: 'browser' });
    expect(page).toMatchObject({ engine: 'browser', contentType: 'text/html' });
    expect(page.bytes).toBeUndefined();
    const err = await renderer.render({ url: `${base}/png`, engine: 'browser' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedContentTypeError);
  });

  it('a document over MAX_DOCUMENT_BYTES is 502 in the browser too', async () => {
    const err = await renderer.render({ url: `${base}/big.pdf`, engine: 'browser' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetTooLargeError);
  });
});
