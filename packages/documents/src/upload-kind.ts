/**
 * What a file sent to POST /v1/parse is, from its bytes alone: the caller's Content-Type (or the
 * file name) is a claim, and a PDF labelled text/html is still a PDF. HTML is markup that starts
 * with `<` (after a BOM and white space); a PDF or Word file is recognised by sniffDocumentKind's
 * magic numbers. Anything else is refused by the caller (415) before any work is paid for.
 */

import type { DocumentKind } from './document.types';
import { DOCX_MEDIA_TYPE, PDF_MEDIA_TYPE, sniffDocumentKind } from './document-kind';

export type UploadKind = DocumentKind | 'html';

export const UPLOAD_MEDIA_TYPES: Record<UploadKind, string> = {
  pdf: PDF_MEDIA_TYPE,
  docx: DOCX_MEDIA_TYPE,
  html: 'text/html',
};

const WHITE_SPACE = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);

/** The first character of the text after its BOM and white space: `<` marks markup. */
function startsWithMarkup(b: Uint8Array): boolean {
  // UTF-16 (BOM): code units of two bytes, the character in the low byte for ASCII.
  if (b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff))) {
    const le = b[0] === 0xff;
    for (let i = 2; i + 1 < b.length && i < 4096; i += 2) {
      const lo = le ? b[i] : b[i + 1];
      const hi = le ? b[i + 1] : b[i];
      if (hi !== 0) return false;
      if (lo !== undefined && WHITE_SPACE.has(lo)) continue;
      return lo === 0x3c;
    }
    return false;
  }
  const start = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  for (let i = start; i < b.length && i < 4096; i++) {
    const c = b[i] as number;
    if (WHITE_SPACE.has(c)) continue;
    return c === 0x3c;
  }
  return false;
}

/** `pdf`, `docx` or `html`, or null when the bytes are none of them. */
export function sniffUploadKind(bytes: Uint8Array): UploadKind | null {
  // Markup first: an HTML page may quote "%PDF-" in its first KiB; a PDF never starts with `<`.
  if (startsWithMarkup(bytes)) return 'html';
  return sniffDocumentKind(bytes);
}
