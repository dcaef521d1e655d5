/**
 * The ledger reasons (packages/db/src/ledger-reason.ts), for the filter. A copy, because the bundle
 * cannot import @wcs/db; tests/src/dashboard/ledger-reasons.test.ts keeps the two equal.
 */
export const LEDGER_REASONS = [
  'grant',
  'topup',
  'monthly',
  'scrape',
  'scrape_refund',
  'batch',
  'batch_refund',
  'crawl',
  'crawl_refund',
  'extract',
  'extract_refund',
  'map',
  'map_refund',
  'search',
  'search_refund',
  'monitor_check',
  'monitor_judge',
  'adjustment',
] as const;
