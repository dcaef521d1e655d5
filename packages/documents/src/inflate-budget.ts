/**
 * The inflation limits of one document, shared by all its compressed parts (a DOCX's ZIP entries, a
 * PDF's Flate streams): a total of inflated bytes, and a ratio cap per part. Every inflated chunk
 * is counted here as it comes out of the inflater; the first limit passed stops the document.
 */
import { TargetTooLargeError } from '@wcs/errors';

export interface InflateLimits {
  /** Inflated bytes all the compressed parts of one document may produce together. */
  maxInflatedBytes: number;
  /** One part may inflate to this many times its compressed size (and to RATIO_FLOOR_BYTES always). */
  maxInflateRatio: number;
}

/** The defaults of DOCUMENT_MAX_INFLATED_BYTES and DOCUMENT_MAX_INFLATE_RATIO. */
export const DEFAULT_INFLATE_LIMITS: Readonly<InflateLimits> = {
  maxInflatedBytes: 128 * 1024 * 1024,
  maxInflateRatio: 200,
};

/** A small part may inflate this far whatever its ratio (a part of blank lines compresses ~1000:1). */
export const RATIO_FLOOR_BYTES = 1024 * 1024;

export class InflateBudget {
  private inflated = 0;
  /** The first limit passed: every part in flight or later stops with it. */
  private stopped: TargetTooLargeError | undefined;

  constructor(
    readonly limits: InflateLimits,
    /** What the document is, for the error messages ("The Word document"). */
    private readonly label: string,
  ) {}

  /** Bytes inflated so far by all parts, those stopped at a limit included. */
  get inflatedBytes(): number {
    return this.inflated;
  }

  /** How far one part of `compressedSize` bytes may inflate. */
  partCap(compressedSize: number): number {
    return Math.max(RATIO_FLOOR_BYTES, compressedSize * this.limits.maxInflateRatio);
  }

  /** Before inflating: throws when the document is stopped or the size a part declares passes a limit. */
  admit(declaredSize: number, cap: number): void {
    if (this.stopped) throw this.stopped;
    if (declaredSize > cap) throw this.stop(this.ratioError());
    if (this.inflated + declaredSize > this.limits.maxInflatedBytes) throw this.stop(this.totalError());
  }

  /** While inflating: adds `n` bytes of a part now at `partTotal`; throws the limit passed, if any. */
  count(n: number, partTotal: number, cap: number): void {
    this.inflated += n;
    if (this.stopped) throw this.stopped;
    if (partTotal > cap) throw this.stop(this.ratioError());
    if (this.inflated > this.limits.maxInflatedBytes) throw this.stop(this.totalError());
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
