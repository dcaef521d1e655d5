/**
 * ZIP entries read under inflation limits. A ZIP-based document (DOCX) is a few MB on the wire and
 * may inflate to gigabytes (a "zip bomb"): yauzl reads the central directory and the local headers
 * (bounds checked, ZIP64, data descriptors), and every entry is inflated by inflateBounded under
 * the archive's InflateBudget, which counts what the inflater really produces and stops it at the
 * first chunk past a limit, whatever sizes the archive declares. Nothing of a stopped entry is kept.
 */
import { TargetTooLargeError } from '@wcs/errors';
import type { Entry, ZipFile } from 'yauzl';
import { inflateBounded } from './bounded-inflate';
import { InflateBudget, type InflateLimits } from './inflate-budget';

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
  private readonly budget: InflateBudget;

  private constructor(
    private readonly zip: ZipFile,
    private readonly bytes: Buffer,
    private readonly entries: ReadonlyMap<string, Entry>,
    limits: InflateLimits,
    label: string,
  ) {
    this.budget = new InflateBudget(limits, label);
  }

  /**
   * Opens `bytes` (reads the central directory only). Rejects with a plain Error when the archive
   * is not a readable ZIP, with TargetTooLargeError when it lists more than MAX_ZIP_ENTRIES.
   * `label` names the document in error messages ("The Word document").
   */
  static async open(bytes: Buffer, limits: InflateLimits, label: string): Promise<BoundedZip> {
    // Entry sizes are checked by the budget, not by yauzl: its check trusts the declared size.
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
    return this.budget.inflatedBytes;
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
    const cap = this.budget.partCap(entry.compressedSize);
    // A declared size past a limit is refused before anything is inflated.
    this.budget.admit(entry.uncompressedSize, cap);
    if (entry.isEncrypted()) throw new Error(`entry ${name} is encrypted`);
    const { fileDataStart } = await this.zip.readLocalFileHeaderPromise(entry, { minimal: true });
    const raw = this.bytes.subarray(fileDataStart, fileDataStart + entry.compressedSize);
    if (entry.compressionMethod === STORED) {
      this.budget.count(raw.length, raw.length, cap);
      return raw;
    }
    if (entry.compressionMethod !== DEFLATED)
      throw new Error(`entry ${name} uses compression method ${entry.compressionMethod}`);
    let out = 0;
    return inflateBounded(raw, {
      format: 'raw',
      keep: true,
      declaredSize: entry.uncompressedSize,
      onChunk: (n) => {
        out += n;
        this.budget.count(n, out, cap);
      },
    });
  }

  close(): void {
    this.zip.close();
  }
}
