import type { SearchProviderConfig } from '@wcs/config';
import type { DocumentsRepository } from '@wcs/db';
import { BraveProvider } from './brave.provider';
import { EmbeddedProvider } from './embedded.provider';
import type { PendingIndexReader } from './pending-index';
import type { SearchProvider } from './search-provider';
import { SearxngProvider } from './searxng.provider';

/** The provider SEARCH_PROVIDER names (config checked by `searchProviderConfig` at start). */
export function createSearchProvider(
  cfg: SearchProviderConfig,
  deps: { documents: DocumentsRepository; pending?: PendingIndexReader },
): SearchProvider {
  switch (cfg.provider) {
    case 'embedded':
      return new EmbeddedProvider(deps.documents, {
        timeoutMs: cfg.timeoutMs,
        indexWaitMs: cfg.indexWaitMs,
        ...(deps.pending ? { pending: deps.pending } : {}),
      });
    case 'searxng':
      return new SearxngProvider({ baseUrl: cfg.searxngUrl, timeoutMs: cfg.timeoutMs });
    case 'brave':
      return new BraveProvider({
        apiKey: cfg.braveApiKey,
        baseUrl: cfg.braveBaseUrl,
        timeoutMs: cfg.timeoutMs,
      });
  }
}
