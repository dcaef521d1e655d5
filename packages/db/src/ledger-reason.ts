/** Why a balance changed. Mirrored by the CHECK constraint on credit_ledger.reason. */
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

export type LedgerReason = (typeof LEDGER_REASONS)[number];
