export { CpuSlicer, DEFAULT_SLICE_MS } from './cpu-slicer';
export {
  type ExtractedLink,
  extractLinks,
  extractPageLinks,
  MAX_LINKS_PER_PAGE,
  type PageHead,
  type PageLinks,
} from './extract-links';
export type { FetchOptions } from './http-fetch';
export {
  identifyUrl,
  isSameSite,
  pathDepth,
  resolveUrl,
  sameSiteAs,
  type UrlIdentity,
  urlKey,
} from './normalize-url';
export {
  compilePathRules,
  MAX_PATH_PATTERN_LENGTH,
  MAX_PATH_PATTERNS,
  type PathRules,
  pathTarget,
} from './path-rules';
export {
  allowAllRobots,
  MAX_CRAWL_DELAY_MS,
  MAX_ROBOTS_BYTES,
  parseRobots,
  type Robots,
  userAgentToken,
} from './robots';
export { fetchRobots, ROBOTS_TIMEOUT_MS, type RobotsFetchResult } from './robots-fetch';
export { MAX_WILDCARD_RULES } from './robots-matcher';
export { parseLastmod } from './sitemap-lastmod';
export { NotASitemapError, parseSitemapStream, type SitemapKind, type SitemapSink } from './sitemap-parser';
export {
  collectSitemapUrls,
  SITEMAP_MAX_BYTES,
  SITEMAP_MAX_DEPTH,
  SITEMAP_MAX_FILES,
  SITEMAP_MAX_URLS,
  type SitemapCollection,
  type SitemapOptions,
  type SitemapUrl,
} from './sitemaps';
