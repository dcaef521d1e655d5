/**
 * A decoded page kept as the decoder's pieces (`decodeBodyPieces`), for readers that need only part
 * of it. `text` is the whole page as a rope: V8 keeps `a + b` of long strings as a pair of
 * references and copies them into one string only when something reads its characters (a search,
 * a slice, a regex). A real page read whole that way is one UTF-16 string in freshly mapped memory
 * (~1 ms for 170 KB of markup here); `slice` and `search` copy only the pieces they touch.
 */
export class TextPieces {
  readonly length: number;
  /** The whole text, not yet copied into one string (see the file comment). */
  readonly text: string;
  /** Where each piece starts in the text. */
  private readonly starts: number[] = [];

  constructor(readonly pieces: readonly string[]) {
    let text = '';
    let at = 0;
    for (const p of pieces) {
      this.starts.push(at);
      at += p.length;
      text += p;
    }
    this.length = at;
    this.text = text;
  }

  /** `text.slice(start, end)` (non-negative bounds), made of the pieces it covers only. */
  slice(start: number, end = this.length): string {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    let out = '';
    for (let i = this.pieceAt(from), at = from; at < to; i++) {
      const p = this.pieces[i] as string;
      const base = this.starts[i] as number;
      out += p.slice(at - base, Math.min(p.length, to - base));
      at = base + p.length;
    }
    return out;
  }

  /**
   * `text.search(re)`: the index of the first match of `re` (no `g` or `y` flag), for a pattern
   * that reads at most `span` characters from where a match starts (lookahead included). Each
   * piece is searched with the next piece's first `span - 1` characters after it, so a match cut
   * between two pieces is found, and a lookahead at a piece's end sees what follows.
   */
  search(re: RegExp, span: number): number {
    for (let i = 0; i < this.pieces.length; i++) {
      const p = this.pieces[i] as string;
      const base = this.starts[i] as number;
      const window = i + 1 < this.pieces.length ? this.slice(base, base + p.length + span - 1) : p;
      const at = window.search(re);
      if (at >= 0 && at < p.length) return base + at;
    }
    return -1;
  }

  /** Index of the piece holding character `at` (0 ≤ at < length). */
  private pieceAt(at: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
