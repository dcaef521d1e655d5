/**
 * Content decided by the bytes as well as the header (WHATWG MIME Sniffing, simplified): a body
 * declared as HTML/text (or declared as nothing) whose first bytes are a known binary signature or
 * contain binary data bytes is binary, whatever the header says. Both engines call this on the
 * first bytes they see (any prefix of the body works), so the answer is the same for fetch and
 * browser and comes before the body is converted or billed.
 */
import { isTextMediaType, mimeTypeOf } from './http-constants';

/** How many leading bytes are inspected (WHATWG says ≥ 512; more catches late NULs cheaply). */
export const SNIFF_WINDOW_BYTES = 1024;

interface Signature {
  mime: string;
  /** null = any byte at that position. */
  bytes: readonly (number | null)[];
  offset?: number;
}

const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

/** Known binary formats (WHATWG image/audio-video/archive tables plus common documents and executables). */
const SIGNATURES: readonly Signature[] = [
  { mime: 'application/pdf', bytes: ascii('%PDF-') },
  { mime: 'application/postscript', bytes: ascii('%!PS-Adobe-') },
  { mime: 'application/zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { mime: 'application/zip', bytes: [0x50, 0x4b, 0x05, 0x06] },
  { mime: 'application/gzip', bytes: [0x1f, 0x8b, 0x08] },
  { mime: 'application/x-bzip2', bytes: ascii('BZh') },
  { mime: 'application/x-rar-compressed', bytes: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07] },
  { mime: 'application/x-7z-compressed', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { mime: 'application/x-xz', bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { mime: 'application/zstd', bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { mime: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mime: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { mime: 'image/gif', bytes: ascii('GIF87a') },
  { mime: 'image/gif', bytes: ascii('GIF89a') },
  { mime: 'image/webp', bytes: [...ascii('RIFF'), null, null, null, null, ...ascii('WEBPVP')] },
  { mime: 'audio/wave', bytes: [...ascii('RIFF'), null, null, null, null, ...ascii('WAVE')] },
  { mime: 'video/avi', bytes: [...ascii('RIFF'), null, null, null, null, ...ascii('AVI ')] },
  { mime: 'image/x-icon', bytes: [0x00, 0x00, 0x01, 0x00] },
  { mime: 'image/bmp', bytes: [...ascii('BM'), null, null, null, null, 0x00, 0x00, 0x00, 0x00] },
  { mime: 'video/mp4', bytes: ascii('ftyp'), offset: 4 },
  { mime: 'video/webm', bytes: [0x1a, 0x45, 0xdf, 0xa3] },
  { mime: 'application/ogg', bytes: [...ascii('OggS'), 0x00] },
  { mime: 'audio/mpeg', bytes: ascii('ID3') },
  { mime: 'font/woff', bytes: ascii('wOFF') },
  { mime: 'font/woff2', bytes: ascii('wOF2') },
  { mime: 'application/wasm', bytes: [0x00, 0x61, 0x73, 0x6d] },
  { mime: 'application/x-elf', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { mime: 'application/java-vm', bytes: [0xca, 0xfe, 0xba, 0xbe] },
  { mime: 'application/vnd.sqlite3', bytes: [...ascii('SQLite format 3'), 0x00] },
];

function matches(bytes: Uint8Array, sig: Signature): boolean {
  const at = sig.offset ?? 0;
  if (bytes.length < at + sig.bytes.length) return false;
  for (let i = 0; i < sig.bytes.length; i++) {
    const want = sig.bytes[i];
    if (want !== null && want !== undefined && bytes[at + i] !== want) return false;
  }
  return true;
}

/** The binary format whose signature starts the body, if any. */
export function binarySignature(bytes: Uint8Array): string | undefined {
  for (const sig of SIGNATURES) {
    // "BZh" is also how English text can begin: require the block magic after the level digit.
    if (sig.mime === 'application/x-bzip2') {
      if (matches(bytes, sig) && bytes[4] === 0x31 && bytes[5] === 0x41 && bytes[6] === 0x59) return sig.mime;
      continue;
    }
    if (matches(bytes, sig)) return sig.mime;
  }
  return undefined;
}

/** WHATWG "binary data byte": 0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F (TAB, LF, FF, CR, ESC are text). */
export function isBinaryDataByte(b: number): boolean {
  return b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f);
}

type Bom = 'utf-8' | 'utf-16le' | 'utf-16be';

function bomOf(bytes: Uint8Array): Bom | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

function declaresWideCharset(contentType: string | undefined): boolean {
  return !!contentType && /;\s*charset\s*=\s*["']?\s*(utf-?16|utf-?32|ucs-?2|unicode)/i.test(contentType);
}

/**
 * True when the bytes are binary: a known signature, or binary data bytes in the sniff window.
 * A BOM (or a declared UTF-16/32 charset) means text with NULs in it, so only signatures count.
 * One tolerance on the WHATWG rule: a NUL always means binary, but other control bytes must be
 * more than 1 % of the window, since legacy pages carry a stray \x0B or \x1A.
 */
export function sniffBinary(bytes: Uint8Array, contentType?: string): boolean {
  if (bytes.length === 0) return false;
  const bom = bomOf(bytes);
  if (bom === 'utf-16le' || bom === 'utf-16be') return false;
  if (binarySignature(bytes)) return true;
  if (declaresWideCharset(contentType)) return false;
  const start = bom === 'utf-8' ? 3 : 0;
  const end = Math.min(bytes.length, start + SNIFF_WINDOW_BYTES);
  let controls = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b === 0x00) return true;
    if (isBinaryDataByte(b)) controls++;
  }
  return controls * 100 > end - start;
}

/** Best text type from the first bytes, for a response without a Content-Type. */
function guessTextType(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, SNIFF_WINDOW_BYTES));
  const bom = bomOf(bytes);
  let text = head.toString(bom === 'utf-16le' ? 'utf16le' : 'latin1');
  if (bom === 'utf-8') text = text.slice(3);
  text = text.replace(/^\ufeff/, '').trimStart();
  if (text.startsWith('<?xml')) return /<(html|!doctype html)/i.test(text) ? 'text/html' : 'text/xml';
  if (text.startsWith('<')) return 'text/html';
  if (text.startsWith('{') || text.startsWith('[')) return 'application/json';
  return 'text/plain';
}

export interface SniffedContent {
  /** The media type the service acts on: the declared one for text, the detected one otherwise. */
  mime: string;
  binary: boolean;
  /** Why it is binary (for the 415 message and details); undefined for text. */
  reason?: 'declared-binary' | 'signature' | 'binary-bytes';
}

/**
 * The effective kind of a body: declared non-text types stay binary; text and missing types are
 * checked against the bytes. `contentType` is the raw header (its charset matters for UTF-16).
 */
export function sniffContent(bytes: Uint8Array, contentType: string | undefined): SniffedContent {
  const declared = mimeTypeOf(contentType);
  if (declared && !isTextMediaType(declared))
    return { mime: declared, binary: true, reason: 'declared-binary' };
  const signature = binarySignature(bytes);
  const bom = bomOf(bytes);
  if (signature && bom !== 'utf-16le' && bom !== 'utf-16be')
    return { mime: signature, binary: true, reason: 'signature' };
  if (sniffBinary(bytes, contentType))
    return { mime: 'application/octet-stream', binary: true, reason: 'binary-bytes' };
  return { mime: declared || guessTextType(bytes), binary: false };
}

/** The documents the service converts (PDF, Word OOXML); everything else binary stays 415. */
export type DocumentKind = 'pdf' | 'docx';

export const PDF_MEDIA_TYPE = 'application/pdf';
export const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * Declared types a document may hide behind (download buttons, misconfigured servers): the bytes
 * decide. Any other non-text declared type (image/png, application/x-msdownload) is refused unread.
 */
const GENERIC_BINARY_TYPES: ReadonlySet<string> = new Set([
  'application/octet-stream',
  'binary/octet-stream',
  'application/binary',
  'application/download',
  'application/force-download',
  'application/x-download',
  'application/x-pdf',
  'application/acrobat',
  'application/zip',
  'application/x-zip-compressed',
]);

/** True when a response declared as `mime` may still be a document (read its head and sniff). */
export function mayBeDocument(mime: string): boolean {
  return mime === '' || mime === PDF_MEDIA_TYPE || mime === DOCX_MEDIA_TYPE || GENERIC_BINARY_TYPES.has(mime);
}

/** How far a ZIP's head is read to find a `word/` entry (Word writes it within the first entries). */
export const DOCUMENT_SNIFF_BYTES = 64 * 1024;

const PDF_MAGIC = ascii('%PDF-');
const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];

function indexOfBytes(hay: Uint8Array, needle: readonly number[], end: number): number {
  const last = Math.min(hay.length, end) - needle.length;
  outer: for (let i = 0; i <= last; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * True when a local file header in `head` names an entry under `word/` (a WordprocessingML
 * package). Every `PK\x03\x04` is checked, not only a walk of the headers: entries written with a
 * data descriptor carry no size in their header, so the next one cannot be found by arithmetic.
 */
function zipHasWordEntry(head: Uint8Array): boolean {
  for (let i = 0; i + 30 <= head.length; i++) {
    if (head[i] !== 0x50 || head[i + 1] !== 0x4b || head[i + 2] !== 0x03 || head[i + 3] !== 0x04) continue;
    const nameLength = head[i + 26]! | (head[i + 27]! << 8);
    const start = i + 30;
    if (nameLength === 0 || start + nameLength > head.length) continue;
    const name = Buffer.from(head.buffer, head.byteOffset + start, nameLength).toString('latin1');
    if (name.startsWith('word/')) return true;
  }
  return false;
}

/**
 * Which document `head` (the first bytes of a body: ≥ SNIFF_WINDOW_BYTES, or up to
 * DOCUMENT_SNIFF_BYTES for a ZIP, or the whole body if shorter) is, given its raw Content-Type.
 * PDF: `%PDF-` at the start, or anywhere in the first KiB (the PDF spec allows leading junk) when
 * the declared type is PDF or a generic binary one — a text or untyped body only at the start, so
 * an HTML page quoting "%PDF-" stays HTML. DOCX: a ZIP declared as DOCX, or a ZIP with a `word/`
 * entry in its head (an XLSX, a JAR or a plain ZIP is not a document). The bytes always have to
 * agree: an HTML error page served as application/pdf is not a PDF.
 */
export function sniffDocument(head: Uint8Array, contentType: string | undefined): DocumentKind | undefined {
  const declared = mimeTypeOf(contentType);
  const looseType = declared === PDF_MEDIA_TYPE || GENERIC_BINARY_TYPES.has(declared);
  const pdfAt = indexOfBytes(head, PDF_MAGIC, looseType ? SNIFF_WINDOW_BYTES : PDF_MAGIC.length);
  if (pdfAt >= 0) return 'pdf';
  if (indexOfBytes(head, ZIP_LOCAL_HEADER, 4) === 0) {
    if (declared === DOCX_MEDIA_TYPE || zipHasWordEntry(head)) return 'docx';
  }
  return undefined;
}

/** The media type a sniffed document is returned as (RenderResult.contentType). */
export function documentMediaType(kind: DocumentKind): string {
  return kind === 'pdf' ? PDF_MEDIA_TYPE : DOCX_MEDIA_TYPE;
}
