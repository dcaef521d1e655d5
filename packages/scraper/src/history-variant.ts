import { createHash } from 'node:crypto';
import type { PageOptions } from '@wcs/queues';
import type { EngineName } from '@wcs/renderer';
import { canonicalJson } from './page-cache-key';

/** The parts of a request (ScrapeRequest's) that shape the markdown a tracked page's history keeps. */
export interface HistoryVariantInput {
  onlyMainContent: boolean;
  engine?: 'auto' | EngineName;
  waitForMs?: number;
  page?: PageOptions;
}

/**
 * What the history's copy was made with: the fetch variant (engine, wait, mobile, location) and
 * the conversion options (onlyMainContent, tag filters). A 304 says only that the site's bytes did
 * not change; the stored markdown stands for the page only when it was made the same way, so a
 * visit with other options is not conditional on it. Defaults are written out, so spelling a
 * default and leaving it out give the same variant.
 */
export function historyVariant(req: HistoryVariantInput): string {
  const page = req.page;
  const canonical = {
    onlyMainContent: req.onlyMainContent,
    engine: req.engine ?? 'auto',
    waitForMs: req.waitForMs ?? 0,
    mobile: page?.mobile ?? false,
    location: page?.location
      ? { country: page.location.country.toUpperCase(), languages: page.location.languages ?? null }
      : null,
    includeTags: page?.includeTags ?? [],
    excludeTags: page?.excludeTags ?? [],
  };
  return createHash('sha256').update(canonicalJson(canonical), 'utf8').digest('hex').slice(0, 32);
}
