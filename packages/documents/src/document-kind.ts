/** Which document a response is, from its first bytes (and its media type as a fallback). */
import type { DocumentKind } from './document.types';

export const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const PDF_MEDIA_TYPE = 'application/pdf';

const PDF_MAGIC = Buffer.from('%PDF-');
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const WORD_PART = Buffer.from('word/');

export function sniffDocumentKind(bytes: Uint8Array, contentType?: string | null): DocumentKind | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Some producers put a few bytes of junk before the header; readers accept it within 1 KiB.
  if (buf.subarray(0, 1024).includes(PDF_MAGIC)) return 'pdf';
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (buf.subarray(0, 4).equals(ZIP_MAGIC)) {
    // Local file names sit in the headers: a Word package names word/document.xml (or other word/ parts).
    if (media === DOCX_MEDIA_TYPE || buf.includes(WORD_PART)) return 'docx';
    return null;
  }
  if (media === PDF_MEDIA_TYPE) return 'pdf';
  if (media === DOCX_MEDIA_TYPE) return 'docx';
  return null;
}
