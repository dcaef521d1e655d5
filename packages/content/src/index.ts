/** @wcs/content: HTML -> main content -> markdown | cleaned html | text | structured json. */
export { processDocument, processHtml } from './document.processor';
export {
  type ContentCuts,
  MAX_ELEMENTS,
  MAX_HTML_CHARS,
  MAX_PAGE_IMAGES,
  MAX_PAGE_LINKS,
  MAX_TEXT_NODE_CHARS,
  warningFor,
} from './input-caps';
export { cleanMarkdownForHash } from './markdown-hash.normalizer';
export { firstSrcsetCandidate } from './page-images';
export { type PageLinks, pageLinkUrls, type RawPageLink } from './page-links';
export { classifyPage, PAGE_TYPES, type PageType } from './page-type.classifier';
export { MAX_HAS_PER_LIST, MAX_SELECTOR_NESTING } from './selector-cost';
export { findInvalidSelector, selectorListCostProblem } from './tag-filter';
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
