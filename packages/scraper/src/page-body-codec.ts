/**
 * A page's body as the page cache keeps it: UTF-8, Brotli at quality 0 with the smallest window
 * that holds it (the settings of @wcs/db's page cache, which reads any Brotli stream back). Quality
 * 0 costs 0.37 ms for a real article page where 1 cost 0.52 ms, for 22.5 % of the size instead of
 * 21.4 % (the 181 pages of bench/article-extraction; gzip level 1: 0.97 ms, 22.9 %). Run in
 * the content thread that decoded the page, synchronously: the event loop neither encodes nor
 * compresses the body, and no libuv hop is paid.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants } from 'node:zlib';

const brotli = promisify(brotliCompress);

export interface CompressedBody {
  encoding: 'br';
  bytes: Uint8Array;
  /** UTF-8 bytes before compression (the cache's size cap counts these). */
  size: number;
}

function options(bytes: number) {
  const bits = Math.min(
    constants.BROTLI_MAX_WINDOW_BITS,
    Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(Math.max(1, bytes)))),
  );
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 0,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
      [constants.BROTLI_PARAM_LGWIN]: bits,
    },
  };
}

export function compressBody(utf8: Uint8Array): CompressedBody {
  return { encoding: 'br', bytes: brotliCompressSync(utf8, options(utf8.byteLength)), size: utf8.byteLength };
}

/**
 * `compressBody` on libuv's pool, for a thread that has other work to do meanwhile (the hop costs
 * ~0.2 ms of CPU: worth it for large bodies only). The caller must not change `utf8` until it settles.
 */
export async function compressBodyAsync(utf8: Uint8Array): Promise<CompressedBody> {
  return { encoding: 'br', bytes: await brotli(utf8, options(utf8.byteLength)), size: utf8.byteLength };
}
