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
} from './dom/input-caps';
export { MAX_HAS_PER_LIST, MAX_SELECTOR_NESTING } from './dom/selector-cost';
export { findInvalidSelector, selectorListCostProblem } from './dom/tag-filter';
export { firstSrcsetCandidate } from './extract/page-images';
export { type PageLinks, pageLinkUrls, type RawPageLink } from './extract/page-links';
export { classifyPage, PAGE_TYPES, type PageType } from './extract/page-type.classifier';
export {
  type DiffChange,
  type DiffChunk,
  type DiffJson,
  diffMarkdown,
  MARKDOWN_DIFF_DEFAULTS,
  type MarkdownDiff,
  type MarkdownDiffLimits,
} from './render/markdown-diff';
export { type CleanMarkdownOptions, cleanMarkdownForHash } from './render/markdown-hash.normalizer';
export { wordChangeShare } from './render/word-change';
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
export {
  type BlockReason,
  type BlockSignal,
  detectBlock,
  judgePage,
  PAGE_VERDICTS,
  type PageVerdict,
  type RawAnswer,
  type VerdictInput,
  type VerdictResult,
} from './verdict';
