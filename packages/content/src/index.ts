/** @wcs/content: HTML -> main content -> markdown | cleaned html | text | structured json. */
export { processDocument, processHtml } from './document.processor';
export { cleanMarkdownForHash } from './markdown-hash.normalizer';
export type {
  BlockType,
  ContentMetadata,
  OutputFormat,
  ProcessedContent,
  ProcessOptions,
  RawDocument,
  StructuredBlock,
  StructuredDocument,
} from './types';
