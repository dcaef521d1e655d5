/**
 * A page's body as the page cache keeps it: UTF-8, Brotli at quality 0 with the smallest window
 * that holds it (the settings of @wcs/db's page cache, which reads any Brotli stream back). Quality
 * 0 costs 0.37 ms for a real article page where 1 cost 0.52 ms, for 22.5 % of the size instead of
 * 21.4 % (the 181 pages of bench/article-extraction; gzip level 1: 0.97 ms, 22.9 %). Run in
 * the content thread that decoded the page, synchronously: the event loop neither encodes nor
 * compresses the body, and no libuv hop is paid.
 */
import { brotliCompressSync, constants } from 'node:zlib';

export interface CompressedBody {
  encoding: 'br';
  bytes: Uint8Array;
  /** UTF-8 bytes before compression (the cache's size cap counts these). */
  size: number;
}

export function compressBody(utf8: Uint8Array): CompressedBody {
  const bits = Math.min(
    constants.BROTLI_MAX_WINDOW_BITS,
    Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(Math.max(1, utf8.byteLength)))),
  );
  const bytes = brotliCompressSync(utf8, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 0,
      [constants.BROTLI_PARAM_SIZE_HINT]: utf8.byteLength,
      [constants.BROTLI_PARAM_LGWIN]: bits,
    },
  });
  return { encoding: 'br', bytes, size: utf8.byteLength };
}
