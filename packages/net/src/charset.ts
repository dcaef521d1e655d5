/**
 * Bytes → text. Charset precedence (WHATWG "decode"): BOM, then the Content-Type header, then a
 * <meta charset> / <meta http-equiv> (or <?xml encoding>) in the first 4 KiB, then utf-8. Labels
 * iconv-lite does not know are skipped (never a crash): a wrong or unknown charset yields text,
 * at worst mojibake. Decoding uses iconv-lite so legacy encodings (windows-1252, shift_jis,
 * euc-kr, gb18030, …) work.
 */
import iconv from 'iconv-lite';

const SNIFF_BYTES = 4096;

/** WHATWG Encoding: these labels really mean windows-1252 on the web. */
const ALIASES: Record<string, string> = {
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  latin1: 'windows-1252',
  l1: 'windows-1252',
  ascii: 'windows-1252',
  'us-ascii': 'windows-1252',
  'x-sjis': 'shift_jis',
  'x-gbk': 'gbk',
  gb2312: 'gbk',
  'unicode-1-1-utf-8': 'utf-8',
  utf8: 'utf-8',
};

/** Normalise a charset label; undefined if iconv-lite does not know it. */
export function normalizeCharset(label: string | undefined | null): string | undefined {
  if (!label) return undefined;
  const clean = label
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
  if (!clean) return undefined;
  const name = ALIASES[clean] ?? clean;
  // UTF-7 is not a web encoding (WHATWG has no such label) and a known XSS vector: ignore it.
  if (name === 'utf-7' || name === 'utf7' || name === 'unicode-1-1-utf-7') return undefined;
  return iconv.encodingExists(name) ? name : undefined;
}

export function charsetFromContentType(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const m = /;\s*charset\s*=\s*("[^"]*"|[^;\s]*)/i.exec(contentType);
  return normalizeCharset(m?.[1]);
}

export function charsetFromBom(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** Looks for <meta charset=…>, <meta http-equiv content="…; charset=…"> or <?xml encoding=…?>. */
export function charsetFromMarkup(bytes: Uint8Array): string | undefined {
  // latin1 maps bytes 1:1, so ASCII markup is readable whatever the real encoding is.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, SNIFF_BYTES)).toString(
    'latin1',
  );
  const xml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml) return normalizeCharset(xml[1]);
  const metaRe = /<meta\b[^>]*>/gi;
  for (let m = metaRe.exec(head); m; m = metaRe.exec(head)) {
    const tag = m[0];
    const direct = /\bcharset\s*=\s*["']?\s*([\w:.-]+)/i.exec(tag);
    if (direct) {
      const cs = normalizeCharset(direct[1]);
      // Markup readable as ASCII cannot be UTF-16: WHATWG reads such a declaration as utf-8.
      if (cs) return /^utf-?16/.test(cs) ? 'utf-8' : cs;
    }
  }
  return undefined;
}

export interface DecodedBody {
  text: string;
  charset: string;
}

/** The charset a body is decoded with: BOM, header, markup, else utf-8 (see the file comment). */
function charsetOf(bytes: Uint8Array, contentTypeHeader: string | undefined): string {
  // A BOM is the most reliable signal there is: it wins over a header that says otherwise.
  return (
    charsetFromBom(bytes) ?? charsetFromContentType(contentTypeHeader) ?? charsetFromMarkup(bytes) ?? 'utf-8'
  );
}

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Detect the charset (see file comment) and decode; strips a BOM. */
export function decodeBody(bytes: Uint8Array, contentTypeHeader?: string): DecodedBody {
  const charset = charsetOf(bytes, contentTypeHeader);
  return { text: iconv.decode(asBuffer(bytes), charset, { stripBOM: true }), charset };
}

/**
 * Bytes decoded per piece by `decodeBodyPieces`: at most 32 Ki characters, so a piece is an
 * ordinary heap string (V8 puts strings over 128 KB in their own freshly mapped pages).
 */
export const PIECE_BYTES = 32 * 1024;

export interface DecodedPieces {
  /** The text in order, none empty: `pieces.join('')` is `decodeBody(…).text`. */
  pieces: string[];
  charset: string;
}

/**
 * `decodeBody`, as the text's pieces of at most PIECE_BYTES bytes each (a streaming decoder carries
 * a character cut between two pieces over). A large page decoded whole is one string in new
 * memory, UTF-16 for the whole page as soon as one character is not ASCII (a real article page:
 * 170 KB of markup, 340 KB of string, ~1.2 ms here); in pieces most of it stays ASCII-only, in
 * memory the heap reuses (~0.15 ms). The HTML parser reads pieces as they are.
 */
export function decodeBodyPieces(
  bytes: Uint8Array,
  contentTypeHeader?: string,
  pieceBytes = PIECE_BYTES,
): DecodedPieces {
  const charset = charsetOf(bytes, contentTypeHeader);
  const buf = asBuffer(bytes);
  // Only UTF-8 (nearly every page) is decoded piecewise: its streaming decoder is Node's own;
  // iconv-lite's multi-byte legacy decoders are not the same cut as whole (gb18030 loses
  // surrogate pairs split between two writes).
  if (charset !== 'utf-8') {
    const text = iconv.decode(buf, charset, { stripBOM: true });
    return { pieces: text ? [text] : [], charset };
  }
  const decoder = iconv.getDecoder(charset, { stripBOM: true });
  const pieces: string[] = [];
  for (let at = 0; at < buf.length; at += pieceBytes) {
    const piece = decoder.write(buf.subarray(at, at + pieceBytes));
    if (piece) pieces.push(piece);
  }
  const rest = decoder.end();
  if (rest) pieces.push(rest);
  return { pieces, charset };
}
