/**
 * One deflate stream inflated through Node's streaming inflater, each output chunk shown to the
 * caller's budget before it is kept: the budget throws to stop, and the inflater is destroyed at
 * once, so a bomb costs at most one chunk past its limit and nothing of it is kept.
 */
import zlib from 'node:zlib';

/** Output chunk of the inflater: a stopped stream has inflated at most this much past its limit. */
export const INFLATE_CHUNK_BYTES = 64 * 1024;

export interface BoundedInflateOptions {
  /** `raw`: a ZIP entry's deflate data; `zlib`: with the 2-byte header (PDF FlateDecode). */
  format: 'raw' | 'zlib';
  /** Keep the output (a ZIP part that is read) or only count it (a PDF stream that is checked). */
  keep: boolean;
  /** The size the container declares: one buffer of it is allocated when `keep` (a lie falls back to chunks). */
  declaredSize?: number;
  /** Sees each output chunk's size before it is kept; throws to stop the inflater. */
  onChunk(bytes: number): void;
}

/**
 * Inflates `input` (bytes after the deflate stream's end are ignored). Resolves with the output when
 * `keep`, else with an empty buffer; rejects with what `onChunk` threw or with zlib's error.
 */
export function inflateBounded(input: Uint8Array, o: BoundedInflateOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const inflater =
      o.format === 'raw'
        ? zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES })
        : zlib.createInflate({ chunkSize: INFLATE_CHUNK_BYTES });
    // An honest declared size gets one buffer of its own (freed whole, not in chunks).
    let target: Buffer | undefined =
      o.keep && o.declaredSize !== undefined && o.declaredSize > 0
        ? Buffer.allocUnsafeSlow(o.declaredSize)
        : undefined;
    let chunks: Buffer[] = [];
    let out = 0;
    let done = false;
    const fail = (err: unknown) => {
      if (done) return;
      done = true;
      target = undefined;
      chunks = [];
      inflater.destroy();
      reject(err);
    };
    inflater.on('data', (chunk: Buffer) => {
      if (done) return;
      try {
        o.onChunk(chunk.length);
      } catch (err) {
        return fail(err);
      }
      if (o.keep) {
        if (target && out + chunk.length > target.length) {
          chunks = [target.subarray(0, out)];
          target = undefined;
        }
        if (target) chunk.copy(target, out);
        else chunks.push(chunk);
      }
      out += chunk.length;
    });
    inflater.on('error', fail);
    inflater.on('end', () => {
      if (done) return;
      done = true;
      if (!o.keep) resolve(Buffer.alloc(0));
      else resolve(target ? target.subarray(0, out) : Buffer.concat(chunks, out));
    });
    inflater.end(input);
  });
}
