import { getData } from '../api-client';
import { ErrorLine } from '../components/status-line';
import { formatNumber } from '../format';
import type { Capabilities } from '../types';
import { useLoad } from '../use-load';

const loadCapabilities = () => getData<Capabilities>('/v1/capabilities');

const yesNo = (v: boolean) => (v ? 'yes' : 'no');
const mib = (bytes: number) => `${formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10)} MiB`;

/** One "term: value" list; `testId` on each value so tests read them whole. */
function Facts({ rows }: { rows: Array<[string, string, string]> }) {
  return (
    <dl class="cap-facts">
      {rows.map(([term, value, testId]) => (
        <div key={testId}>
          <dt>{term}</dt>
          <dd data-testid={testId}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** GET /v1/capabilities as a page: what this deployment offers and the limits this account meets. */
export function CapabilitiesView() {
  const caps = useLoad(loadCapabilities, 'capabilities');
  const c = caps.data;
  return (
    <>
      <h1>Capabilities</h1>
      <ErrorLine message={caps.error} />
      {c ? (
        <>
          <h2>Features</h2>
          <Facts
            rows={[
              ['Browser (JavaScript pages, actions, screenshots)', yesNo(c.engines.browser), 'cap-browser'],
              ['Documents', c.documents.types.join(', ').toUpperCase(), 'cap-documents'],
              [
                'OCR of scanned PDFs',
                c.documents.ocr.enabled ? `yes (${c.documents.ocr.languages ?? ''})` : 'no',
                'cap-ocr',
              ],
              [
                'Extract model',
                c.extract.configured ? `${c.extract.provider}: ${c.extract.model ?? ''}` : 'not configured',
                'cap-extract',
              ],
              ['Search provider', c.search.provider, 'cap-search'],
              ['Proxies', `${c.proxies.count} (${c.proxies.mode})`, 'cap-proxies'],
              ['Formats', c.formats.formats.join(', '), 'cap-formats'],
              ['Page options', c.pageOptions.join(', '), 'cap-page-options'],
            ]}
          />
          <h2>Limits</h2>
          <Facts
            rows={[
              [
                'Rate limit',
                `${formatNumber(c.limits.rateLimit.requests)} requests / ${c.limits.rateLimit.windowSeconds} s (${c.limits.rateLimit.plan} plan)`,
                'cap-rate-limit',
              ],
              ['URLs per batch', formatNumber(c.limits.batchUrls), 'cap-batch-urls'],
              ['Pages per crawl', formatNumber(c.limits.crawlPages), 'cap-crawl-pages'],
              ['Results per search', formatNumber(c.limits.searchResults), 'cap-search-results'],
              ['Request body', mib(c.limits.bodyBytes), 'cap-body-bytes'],
              ['Page size', mib(c.limits.pageBytes), 'cap-page-bytes'],
              ['Document size', mib(c.documents.maxBytes), 'cap-document-bytes'],
              [
                'Scrape time budget',
                `${formatNumber(c.limits.scrapeTimeoutMsDefault)} ms default, ${formatNumber(c.limits.scrapeTimeoutMsMax)} ms at most`,
                'cap-scrape-timeout',
              ],
              ['Active keys per account', formatNumber(c.limits.activeKeysPerAccount), 'cap-active-keys'],
            ]}
          />
          <h2>Firecrawl-compatible routes</h2>
          <p class="muted">
            Under <code>{c.firecrawl.basePath}</code>. Refused with 501: {c.firecrawl.unsupported.join(', ')}.
          </p>
          <ul class="routes" data-testid="cap-firecrawl-routes">
            {c.firecrawl.routes.map((r) => (
              <li key={`${r.method} ${r.path}`}>
                <code>
                  {r.method} {r.path}
                </code>
              </li>
            ))}
          </ul>
          <h3>Options refused with 400</h3>
          <ul class="routes" data-testid="cap-firecrawl-refused">
            {c.firecrawl.refusedOptions.map((r) => (
              <li key={`${r.endpoint} ${r.option}`}>
                <code>{r.endpoint}</code> <code>{r.option}</code>: {r.refused}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}
