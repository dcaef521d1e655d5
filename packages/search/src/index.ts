export { BRAVE_DEFAULT_BASE_URL, BraveProvider, braveSearchLang, plainText } from './brave.provider';
export { createSearchProvider } from './create-search-provider';
export { EmbeddedProvider } from './embedded.provider';
export type { PendingIndexReader, PendingIndexWriter, PendingMark } from './pending-index';
export {
  type AnnouncedPage,
  type IndexablePage,
  type ReservedAnnouncement,
  SearchIndexer,
  type SearchIndexerOptions,
} from './search-indexer';
export { type SearchHit, type SearchProvider, type SearchQuery, uniqueHits } from './search-provider';
export { SearxngProvider, searxngLanguage } from './searxng.provider';
