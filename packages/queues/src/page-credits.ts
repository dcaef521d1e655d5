import type { PageOptions } from './page-options.contract';

/** Credits of one extract (POST /v1/extract), and of every other job of the extract model priced like one. */
export const EXTRACT_CREDITS = 5;

/**
 * What one page costs, where pages are billed (the gateway's scrape, batch and search; the crawl
 * worker's pages). Each call of the extract model a page asks for is priced like an extract (5
 * credits, EXTRACT_CREDITS): the `summary` format, and the `changeTracking` format's
 * `json` mode (the values before and after). A scrape, batch item or crawled page with a summary
 * is 6 credits, with both 11; a search result 2 + 5. Charged and refunded with its page.
 */
export const SUMMARY_CREDITS = EXTRACT_CREDITS;
/** The `json` mode of `changeTracking`: priced like an extract, whether it takes one model call or two. */
export const CHANGE_JSON_CREDITS = EXTRACT_CREDITS;

type PricedOptions = Pick<PageOptions, 'formats' | 'changeTrackingOptions'> | undefined;

/** Credits of the extract model's work a page's options ask for (summary, changeTracking json). */
export function modelCredits(page: PricedOptions): number {
  const formats = page?.formats;
  const summary = formats?.includes('summary') ? SUMMARY_CREDITS : 0;
  const json =
    formats?.includes('changeTracking') && page?.changeTrackingOptions?.modes?.includes('json')
      ? CHANGE_JSON_CREDITS
      : 0;
  return summary + json;
}

/** A page of a scrape, batch or crawl: 1 credit, plus its model calls'. */
export function pageCredits(page: PricedOptions): number {
  return 1 + modelCredits(page);
}
