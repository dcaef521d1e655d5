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
  /** The size the container declares: the output buffer starts at it when `keep`. */
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
    // The output is copied into one buffer (the declared size, doubled when that was a lie), never
    // kept as the inflater's 64 KiB chunks: those are freed at once and their memory reused, where
    // 128 MiB of kept chunks stayed in the allocator after they were freed (probe: ~125 MB RSS
    // still held after the thread ended); big buffers go back to the system when freed.
    let target: Buffer | undefined = o.keep
      ? Buffer.allocUnsafeSlow(Math.max(o.declaredSize ?? 0, INFLATE_CHUNK_BYTES))
      : undefined;
    let out = 0;
    let done = false;
    const fail = (err: unknown) => {
      if (done) return;
      done = true;
      target = undefined;
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
      if (target) {
        if (out + chunk.length > target.length) {
          const grown = Buffer.allocUnsafeSlow(Math.max(out + chunk.length, target.length * 2));
          target.copy(grown, 0, 0, out);
          target = grown;
        }
        chunk.copy(target, out);
      }
      out += chunk.length;
    });
    inflater.on('error', fail);
    inflater.on('end', () => {
      if (done) return;
      done = true;
      resolve(target ? target.subarray(0, out) : Buffer.alloc(0));
    });
    inflater.end(input);
  });
}
