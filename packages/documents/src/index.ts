export {
  BoundedZip,
  DEFAULT_INFLATE_LIMITS,
  INFLATE_CHUNK_BYTES,
  type InflateLimits,
  MAX_ZIP_ENTRIES,
  RATIO_FLOOR_BYTES,
} from './bounded-zip';
export { convertDocument, DEFAULT_MAX_PAGES } from './convert-document';
export type { ConvertedDocument, ConvertOptions, DocumentKind, DocumentMetadata } from './document.types';
export { DOCX_MEDIA_TYPE, PDF_MEDIA_TYPE, sniffDocumentKind } from './document-kind';
export { NO_TEXT_LAYER, pdfDate } from './pdf.converter';
