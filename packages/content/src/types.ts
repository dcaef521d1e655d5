/** Public types of @wcs/content. Other packages code against these names: extend, never rename. */
import type { PageLinks } from './extract/page-links';
import type { PageType } from './extract/page-type.classifier';
import type { VerdictResult } from './verdict/verdict.types';

export type OutputFormat = 'markdown' | 'html' | 'text' | 'json';

export interface ProcessOptions {
  /** Final URL of the page; used to absolutize links and image URLs. */
  url: string;
  /** Default true: strip nav, ads, footers, sidebars, cookie banners. */
  onlyMainContent?: boolean;
  /** Default markdown, html and text; 'json' is computed only when asked for. */
  formats?: OutputFormat[];
  /** Copied into metadata. */
  statusCode?: number;
  /** The URL the caller asked for (before redirects); default = url. */
  sourceUrl?: string;
  /** Also return the page's links (from the same parse), for the crawler and map. */
  links?: boolean;
  /** Also return the page's image URLs (the `images` format); HTML only. */
  images?: boolean;
  /**
   * CSS selectors: keep only these elements (and what they hold) as the page body before the
   * main-content step (or the whole-body step with onlyMainContent: false). No match: empty content.
   */
  includeTags?: string[];
  /** CSS selectors: remove these elements from the page body before the main-content step. */
  excludeTags?: string[];
  /**
   * Time budget of the includeTags/excludeTags matching on this page (all passes together), ms;
   * past it, SelectorTooExpensiveError. Absent: unbounded (in-process callers, benchmarks).
   */
  selectorBudgetMs?: number;
  /** The answer's headers (lower-case names): the verdict reads vendor headers such as `cf-mitigated`. */
  headers?: Readonly<Record<string, string>>;
}

export interface ContentMetadata {
  title: string | null;
  description: string | null;
  language: string | null;
  canonicalUrl: string | null;
  sourceURL: string;
  finalUrl: string;
  statusCode?: number;
  ogImage?: string | null;
  author?: string | null;
  publishedTime?: string | null;
  /** What kind of page this is (page-type.classifier.ts). */
  pageType?: PageType;
}

export type BlockType = 'heading' | 'paragraph' | 'list' | 'table' | 'code' | 'quote' | 'image';

export interface StructuredBlock {
  type: BlockType;
  text?: string;
  level?: number;
  items?: string[];
  ordered?: boolean;
  rows?: string[][];
  language?: string | null;
  src?: string;
  alt?: string;
}

/** The `json` format. */
export interface StructuredDocument {
  metadata: ContentMetadata;
  headings: { level: number; text: string }[];
  blocks: StructuredBlock[];
  links: { url: string; text: string }[];
}

export interface ProcessedContent {
  markdown: string;
  html: string;
  text: string;
  json?: StructuredDocument;
  metadata: ContentMetadata;
  /** Set when the input was cut by a cap (input-caps.ts); says what was cut. */
  warning?: string;
  /** Only with `links: true`, and only for HTML. */
  links?: PageLinks;
  /** Only with `images: true`, and only for HTML: absolute http(s) image URLs, page order. */
  images?: string[];
  /** What the page is (verdict/): content, or a wall, an error page, … that must not be sold as content. */
  verdict: VerdictResult;
}

export interface RawDocument {
  body: string;
  /**
   * `body` as the decoder's pieces (`body` is their join), when the caller has them: the parser
   * reads these as they are (decodeBodyPieces of @wcs/net says why they are cheaper).
   */
  pieces?: readonly string[];
  contentType: string;
  url: string;
  sourceUrl?: string;
  statusCode?: number;
}
