/**
 * A response body gathered into one Buffer. When the server declared the length (and no
 * Content-Encoding changes it), the bytes are copied into a buffer of that size as they arrive,
 * so a 50 MB document is not copied a second time at the end (`Buffer.concat`), and the result
 * fills its own ArrayBuffer (the content pool moves such a buffer to its thread without a copy).
 * A server that sends more than it declared falls back to collecting chunks.
 */
export class BodyBytes {
  private chunks: Buffer[] = [];
  private target: Buffer | undefined;
  private filled = 0;

  constructor(private readonly declaredLength: number | undefined) {}

  get size(): number {
    return this.filled;
  }

  /** What has arrived so far (the head the content sniffers read). */
  head(): Buffer {
    return this.target ? this.target.subarray(0, this.filled) : Buffer.concat(this.chunks, this.filled);
  }

  /** Start copying into one buffer of the declared length (once the body is known to be wanted). */
  presize(): void {
    const n = this.declaredLength;
    if (this.target || n === undefined || n < this.filled) return;
    this.target = Buffer.allocUnsafeSlow(n);
    let at = 0;
    for (const c of this.chunks) at += c.copy(this.target, at);
    this.chunks = [];
  }

  push(chunk: Buffer): void {
    if (this.target && this.filled + chunk.length > this.target.length) {
      this.chunks = [this.target.subarray(0, this.filled)];
      this.target = undefined;
    }
    if (this.target) chunk.copy(this.target, this.filled);
    else this.chunks.push(chunk);
    this.filled += chunk.length;
  }

  bytes(): Buffer {
    return this.target ? this.target.subarray(0, this.filled) : Buffer.concat(this.chunks, this.filled);
  }
}
