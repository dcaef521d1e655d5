/**
 * ZIP entries read under inflation limits. A ZIP-based document (DOCX) is a few MB on the wire and
 * may inflate to gigabytes (a "zip bomb"): yauzl reads the central directory and the local headers
 * (bounds checked, ZIP64, data descriptors), and every entry is inflated here through one streaming
 * inflater that counts what it really produces and stops at the first chunk past a limit, whatever
 * sizes the archive declares. Nothing of an entry is kept when it is stopped.
 */
import zlib from 'node:zlib';
import { TargetTooLargeError } from '@wcs/errors';
import type { Entry, ZipFile } from 'yauzl';

export interface InflateLimits {
  /** Inflated bytes all the reads of one archive may produce together. */
  maxInflatedBytes: number;
  /** One entry may inflate to this many times its compressed size (and to RATIO_FLOOR_BYTES always). */
  maxInflateRatio: number;
}

/** The defaults of DOCUMENT_MAX_INFLATED_BYTES and DOCUMENT_MAX_INFLATE_RATIO. */
export const DEFAULT_INFLATE_LIMITS: Readonly<InflateLimits> = {
  maxInflatedBytes: 128 * 1024 * 1024,
  maxInflateRatio: 200,
};

/** A small entry may inflate this far whatever its ratio (a part of blank lines compresses ~1000:1). */
export const RATIO_FLOOR_BYTES = 1024 * 1024;
/** Output chunk of the inflater: a stopped entry has inflated at most this much past its limit. */
export const INFLATE_CHUNK_BYTES = 64 * 1024;
/** Entries an archive may list (a DOCX has tens): each one costs an object before anything is read. */
export const MAX_ZIP_ENTRIES = 10_000;

const STORED = 0;
const DEFLATED = 8;

/** yauzl loads with the first archive: the services import this package on their main thread. */
function yauzl(): typeof import('yauzl') {
  return require('yauzl');
}

/** An opened archive whose entries are read (inflated) on demand, under one shared budget. */
export class BoundedZip {
  private inflated = 0;
  /** The first limit passed: every read in flight or later stops with it. */
  private stopped: TargetTooLargeError | undefined;

  private constructor(
    private readonly zip: ZipFile,
    private readonly bytes: Buffer,
    private readonly entries: ReadonlyMap<string, Entry>,
    private readonly limits: InflateLimits,
    /** What the archive is, for the error messages ("The Word document"). */
    private readonly label: string,
  ) {}

  /**
   * Opens `bytes` (reads the central directory only). Rejects with a plain Error when the archive
   * is not a readable ZIP, with TargetTooLargeError when it lists more than MAX_ZIP_ENTRIES.
   */
  static async open(bytes: Buffer, limits: InflateLimits, label: string): Promise<BoundedZip> {
    // Entry sizes are checked here, not by yauzl: its check trusts the declared size only.
    const zip = await yauzl().fromBufferPromise(bytes, {
      lazyEntries: true,
      autoClose: false,
      validateEntrySizes: false,
      strictFileNames: false,
    });
    if (zip.entryCount > MAX_ZIP_ENTRIES) {
      zip.close();
      throw new TargetTooLargeError(`${label} lists ${zip.entryCount} files, more than ${MAX_ZIP_ENTRIES}`, {
        details: { maxZipEntries: MAX_ZIP_ENTRIES },
      });
    }
    const entries = new Map<string, Entry>();
    try {
      for await (const entry of zip.eachEntry())
        if (!entries.has(entry.fileName)) entries.set(entry.fileName, entry);
    } catch (err) {
      zip.close();
      throw err;
    }
    return new BoundedZip(zip, bytes, entries, limits, label);
  }

  /** Bytes inflated so far by all reads, those stopped at a limit included. */
  get inflatedBytes(): number {
    return this.inflated;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /**
   * The entry's inflated bytes. Rejects with TargetTooLargeError (details name the limit) as soon
   * as the entry passes its ratio cap or the archive its total, and with a plain Error when the
   * entry is missing, encrypted, of an unknown method or its data is damaged.
   */
  async read(name: string): Promise<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no entry ${name}`);
    if (this.stopped) throw this.stopped;
    if (entry.isEncrypted()) throw new Error(`entry ${name} is encrypted`);
    const cap = Math.max(RATIO_FLOOR_BYTES, entry.compressedSize * this.limits.maxInflateRatio);
    // A declared size past a limit is refused before anything is inflated.
    if (entry.uncompressedSize > cap) throw this.stop(this.ratioError());
    if (this.inflated + entry.uncompressedSize > this.limits.maxInflatedBytes)
      throw this.stop(this.totalError());
    const { fileDataStart } = await this.zip.readLocalFileHeaderPromise(entry, { minimal: true });
    const raw = this.bytes.subarray(fileDataStart, fileDataStart + entry.compressedSize);
    if (entry.compressionMethod === STORED) {
      this.count(raw.length, raw.length, cap);
      return raw;
    }
    if (entry.compressionMethod !== DEFLATED)
      throw new Error(`entry ${name} uses compression method ${entry.compressionMethod}`);
    return this.inflate(raw, entry.uncompressedSize, cap);
  }

  close(): void {
    this.zip.close();
  }

  /** Adds `n` inflated bytes; throws the limit passed, if any. */
  private count(n: number, entryTotal: number, cap: number): void {
    this.inflated += n;
    if (this.stopped) throw this.stopped;
    if (entryTotal > cap) throw this.stop(this.ratioError());
    if (this.inflated > this.limits.maxInflatedBytes) throw this.stop(this.totalError());
  }

  private inflate(raw: Buffer, declared: number, cap: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const inflater = zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES });
      // An honest declared size gets one buffer of its own (freed whole, not in chunks); a size
      // that lies falls back to collecting the chunks.
      let target: Buffer | undefined = declared > 0 ? Buffer.allocUnsafeSlow(declared) : undefined;
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
          this.count(chunk.length, out + chunk.length, cap);
        } catch (err) {
          return fail(err);
        }
        if (target && out + chunk.length > target.length) {
          chunks = [target.subarray(0, out)];
          target = undefined;
        }
        if (target) chunk.copy(target, out);
        else chunks.push(chunk);
        out += chunk.length;
      });
      inflater.on('error', fail);
      inflater.on('end', () => {
        if (done) return;
        done = true;
        resolve(target ? target.subarray(0, out) : Buffer.concat(chunks, out));
      });
      inflater.end(raw);
    });
  }

  private stop(err: TargetTooLargeError): TargetTooLargeError {
    this.stopped ??= err;
    return this.stopped;
  }

  private totalError(): TargetTooLargeError {
    const max = this.limits.maxInflatedBytes;
    return new TargetTooLargeError(
      `${this.label} inflates to more than ${max} bytes (DOCUMENT_MAX_INFLATED_BYTES); it is refused as a decompression bomb`,
      { details: { maxInflatedBytes: max } },
    );
  }

  private ratioError(): TargetTooLargeError {
    const ratio = this.limits.maxInflateRatio;
    return new TargetTooLargeError(
      `${this.label} has a part that inflates to more than ${ratio} times its compressed size (DOCUMENT_MAX_INFLATE_RATIO); it is refused as a decompression bomb`,
      { details: { maxInflateRatio: ratio } },
    );
  }
}
