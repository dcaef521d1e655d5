import { isUtf8 } from 'node:buffer';

/**
 * What text from a request must be before anything stores it: PostgreSQL's text and jsonb hold
 * neither a NUL character nor a lone UTF-16 surrogate, and a body that is not UTF-8 would otherwise
 * be decoded with U+FFFD in place of its bad bytes (a silent change of what the client sent). Each
 * is a 400 `VALIDATION_FAILED` naming where it is, whichever string it is in.
 */

export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

export const NUL_MESSAGE = 'contains a NUL character (\\u0000), which text cannot hold';
export const LONE_SURROGATE_MESSAGE =
  'not valid Unicode (a lone UTF-16 surrogate such as \\ud800); send well-formed text';

export function hasNul(s: string): boolean {
  return s.includes('\u0000');
}

/** A field name safe to put in a message and a log: NUL and lone surrogates shown as U+FFFD. */
export function printableField(name: string): string {
  return name.replace(LONE_SURROGATES, '\uFFFD').replaceAll('\u0000', '\uFFFD');
}

export function invalidUtf8Message(offset: number): string {
  return `body: not valid UTF-8 (byte ${offset} starts no valid sequence); send well-formed text`;
}

/**
 * Offset of the first byte that starts no well-formed UTF-8 sequence (a stray continuation byte,
 * a sequence cut short, an overlong form, an encoded surrogate, past U+10FFFF), or -1 when the
 * whole buffer is UTF-8. The native check answers the common case; the walk only finds where.
 */
export function invalidUtf8Offset(buf: Uint8Array): number {
  if (isUtf8(buf)) return -1;
  let i = 0;
  while (i < buf.length) {
    const b = buf[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Unicode's table 3-7 of well-formed byte sequences: the lead fixes the length and the
    // range of the second byte; later bytes are plain continuations.
    let more: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) more = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      more = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      more = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= more; k++) {
      const c = buf[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += more + 1;
  }
  return -1;
}
