/**
 * htmlparser2's Tokenizer, with its runs of plain characters skipped by a string search instead of
 * one trip round its state machine per character. With `decodeEntities` (how parseHtml parses) the
 * stock tokenizer walks text and quoted attribute values a character at a time, looking only for
 * `<`, `&` or the closing quote, and scans comments, scripts and styles for their end the same way.
 * Here each run ends where `indexOf` finds the next character that matters (the stock state
 * handles that character itself), so the tokens, their positions and every callback are the
 * stock tokenizer's: fast-tokenizer.test.ts compares both, event by event, on generated markup cut
 * into chunks of every size. On bench/article-extraction's 181 pages parsing took 0.61× the time.
 *
 * The members it replaces are private in htmlparser2's types (10.x): they are named in
 * `TokenizerInternals`, and when a release no longer has them the stock tokenizer is used.
 */
import { Tokenizer } from 'htmlparser2';

const LT = 0x3c;
const AMP = 0x26;
const DOUBLE_QUOTE = 0x22;

/** The members of htmlparser2's Tokenizer that this subclass reads or replaces. */
interface TokenizerInternals {
  buffer: string;
  offset: number;
  index: number;
  decodeEntities: boolean;
  stateText(c: number): void;
  handleInAttributeValue(c: number, quote: number): void;
  fastForwardTo(c: number): boolean;
}

type TokenizerClass = typeof Tokenizer;
const Base = Tokenizer as unknown as new (
  ...args: ConstructorParameters<TokenizerClass>
) => TokenizerInternals;

const REPLACED = ['stateText', 'handleInAttributeValue', 'fastForwardTo'] as const;

class SkippingTokenizer extends Base {
  /** Where the next `<`, `&`, `"` and `'` are in the current chunk (absolute; Infinity: none left). */
  private next: { lt: number; amp: number; dq: number; sq: number } | undefined;
  private nextFor = '';
  private nextOffset = -1;

  /** The absolute position of `ch`'s next occurrence at or after `from` in this chunk. */
  private nextOf(key: 'lt' | 'amp' | 'dq' | 'sq', ch: string, from: number): number {
    if (this.nextFor !== this.buffer || this.nextOffset !== this.offset || !this.next) {
      this.next = { lt: -1, amp: -1, dq: -1, sq: -1 };
      this.nextFor = this.buffer;
      this.nextOffset = this.offset;
    }
    let at = this.next[key];
    if (at < from) {
      const i = this.buffer.indexOf(ch, from - this.offset);
      at = i < 0 ? Number.POSITIVE_INFINITY : i + this.offset;
      this.next[key] = at;
    }
    return at;
  }

  /** Moves to just before `to` (the parse loop steps onto it), or to the chunk's end. */
  private skipTo(to: number): void {
    this.index = Math.min(to, this.buffer.length + this.offset) - 1;
  }

  override stateText(c: number): void {
    if (c === LT || c === AMP || !this.decodeEntities) {
      super.stateText(c);
      return;
    }
    this.skipTo(Math.min(this.nextOf('lt', '<', this.index), this.nextOf('amp', '&', this.index)));
  }

  override handleInAttributeValue(c: number, quote: number): void {
    if (c === quote || c === AMP || !this.decodeEntities) {
      super.handleInAttributeValue(c, quote);
      return;
    }
    const end =
      quote === DOUBLE_QUOTE ? this.nextOf('dq', '"', this.index) : this.nextOf('sq', "'", this.index);
    this.skipTo(Math.min(end, this.nextOf('amp', '&', this.index)));
  }

  override fastForwardTo(c: number): boolean {
    const i = this.buffer.indexOf(String.fromCharCode(c), this.index + 1 - this.offset);
    if (i >= 0) {
      this.index = i + this.offset;
      return true;
    }
    // As the stock method leaves it: the parse loop's step takes it to the chunk's end.
    this.index = this.buffer.length + this.offset - 1;
    return false;
  }
}

const stockHasThem = REPLACED.every(
  (m) => typeof (Tokenizer.prototype as unknown as Record<string, unknown>)[m] === 'function',
);

/** The tokenizer for htmlparser2's Parser (`{ Tokenizer: FastTokenizer }`). */
export const FastTokenizer: TokenizerClass = stockHasThem
  ? (SkippingTokenizer as unknown as TokenizerClass)
  : Tokenizer;
