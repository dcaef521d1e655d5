/** What a document conversion produces. */
import type { InflateLimits } from './inflate-budget';
import type { OcrOptions } from './ocr.engine';

export type DocumentKind = 'pdf' | 'docx';

export interface DocumentMetadata {
  title: string | null;
  author: string | null;
  /** Pages in the file (PDF); null when the format has no fixed pages (DOCX). */
  pages: number | null;
  /** When the document was created, ISO time; null when it does not say. */
  createdAt: string | null;
}

export interface ConvertedDocument {
  /** HTML for @wcs/content; PDF page starts are `<hr data-page="N">`. */
  html: string;
  metadata: DocumentMetadata;
  /** The page cap cut the document, or the PDF has no text layer (`NO_TEXT_LAYER`, or `OCR:` when it was read by OCR). */
  warning?: string;
}

export interface ConvertOptions {
  bytes: Uint8Array;
  kind: DocumentKind;
  /** Drop running headers/footers and page numbers (PDF). */
  onlyMainContent: boolean;
  /** Pages read at most (PDF); default 500. */
  maxPages?: number;
  /** OCR of a PDF without a text layer, when enabled and tesseract/pdftoppm are installed. */
  ocr?: OcrOptions;
  /** Inflation limits of a DOCX's ZIP parts and a PDF's Flate streams; default DEFAULT_INFLATE_LIMITS. */
  inflateLimits?: InflateLimits;
  /** The caller hands `bytes` over: the PDF parser may take (detach) their buffer instead of a copy. */
  consumeBytes?: boolean;
}
