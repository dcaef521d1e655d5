/** One entry for every document kind: bytes → HTML for the content pipeline + metadata. */
import type { ConvertedDocument, ConvertOptions } from './document.types';
import { convertDocx } from './docx.converter';
import { convertPdf } from './pdf.converter';

export const DEFAULT_MAX_PAGES = 500;

export function convertDocument(o: ConvertOptions): Promise<ConvertedDocument> {
  if (o.kind === 'docx') return convertDocx(o.bytes, o.inflateLimits);
  return convertPdf(o.bytes, {
    onlyMainContent: o.onlyMainContent,
    maxPages: o.maxPages ?? DEFAULT_MAX_PAGES,
    ...(o.ocr ? { ocr: o.ocr } : {}),
    ...(o.consumeBytes ? { consumeBytes: true } : {}),
    ...(o.inflateLimits ? { inflateLimits: o.inflateLimits } : {}),
  });
}
