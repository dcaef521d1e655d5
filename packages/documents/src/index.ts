export { INFLATE_CHUNK_BYTES, inflateBounded } from './bounded-inflate';
export { BoundedZip, MAX_ZIP_ENTRIES } from './bounded-zip';
export { convertDocument, DEFAULT_MAX_PAGES } from './convert-document';
export type { ConvertedDocument, ConvertOptions, DocumentKind, DocumentMetadata } from './document.types';
export { DOCX_MEDIA_TYPE, PDF_MEDIA_TYPE, sniffDocumentKind } from './document-kind';
export {
  DEFAULT_INFLATE_LIMITS,
  InflateBudget,
  type InflateLimits,
  RATIO_FLOOR_BYTES,
} from './inflate-budget';
export { NO_TEXT_LAYER, pdfDate } from './pdf.converter';
export { sniffUploadKind, UPLOAD_MEDIA_TYPES, type UploadKind } from './upload-kind';
