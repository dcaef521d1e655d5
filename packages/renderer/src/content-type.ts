/** Which response types we return as text, and sniffing when the server sends no Content-Type. */
import { UnsupportedContentTypeError } from '@wcs/errors';

const TEXT_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  'text/markdown',
  'text/x-markdown',
  'application/json',
  'text/xml',
  'application/xml',
]);

/** 'Text/HTML; charset=UTF-8' → 'text/html'; '' when absent. */
export function mimeTypeOf(contentType: string | undefined | null): string {
  if (!contentType) return '';
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

export function isSupportedContentType(mime: string): boolean {
  if (TEXT_TYPES.has(mime)) return true;
  // application/ld+json, application/rss+xml, application/atom+xml, …
  return /^[a-z0-9.+-]+\/[a-z0-9.-]+\+(json|xml)$/.test(mime);
}

export function assertSupportedContentType(mime: string): void {
  if (!isSupportedContentType(mime)) {
    throw new UnsupportedContentTypeError(`Unsupported content type: ${mime || 'unknown'}`, {
      details: { contentType: mime },
    });
  }
}

/** Best guess from the first bytes, for responses without a Content-Type. Undefined = binary. */
export function sniffContentType(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024));
  let text = head.toString('latin1');
  if (text.startsWith('\xef\xbb\xbf')) text = text.slice(3);
  const trimmed = text.trimStart();
  if (trimmed.startsWith('<?xml')) return /<(html|!doctype html)/i.test(trimmed) ? 'text/html' : 'text/xml';
  if (trimmed.startsWith('<')) return 'text/html';
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return 'application/json';
  // NUL or other control bytes (except tab/CR/LF/FF/ESC) mean binary.
  for (const b of head) {
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) return undefined;
  }
  return 'text/plain';
}
