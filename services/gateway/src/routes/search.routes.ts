import { randomUUID } from 'node:crypto';
import { TimeoutError, toServiceError, ValidationError } from '@wcs/errors';
import { type DocumentData, type Job, type PageFormat, type PageOptions, SUMMARY_CREDITS } from '@wcs/queues';
import type { SearchHit } from '@wcs/search';
import { Router } from 'express';
import { type SearchBody, searchBody } from '../contract/search.request';
import type { AuthContext, GatewayDeps } from '../deps';
import { type CallerResponse, callerGone } from '../jobs/caller-gone';
import { runChargedWork } from '../jobs/charged-job';
import { headerTargetOf } from '../jobs/credit-headers';
import { authOf } from '../middleware/auth.middleware';
import { requireModel } from '../validation/model-check';
import { checkPageOptions } from '../validation/page-options';
import { parseBody } from '../validation/parse-body';
import { normalizeTargetUrl } from '../validation/target-url';

/** Spec §8: 2 credits per result returned. */
export const CREDITS_PER_SEARCH_RESULT = 2;

/** The page's formats when a summary is asked: markdown (always in a result), the format's own, summary. */
function summaryFormats(format: SearchBody['format']): PageFormat[] {
  return format === 'markdown' ? ['markdown', 'summary'] : ['markdown', format, 'summary'];
}

/** One entry of `data`: the hit, its page when scraped, or `markdown: null` + `error`/`code`. */
export type SearchResult = {
  url: string;
  title: string;
  description: string;
} & (
  | {
      markdown?: string;
      html?: string;
      text?: string;
      json?: unknown;
      changeTracking?: DocumentData['changeTracking'];
      summary?: string;
      metadata?: DocumentData['metadata'];
    }
  | { markdown: null; error: string; code: string }
);

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function scrapedResult(hit: SearchHit, data: DocumentData, format: SearchBody['format']): SearchResult {
  return {
    url: hit.url,
    title: hit.title || str(data.metadata.title),
    description: hit.description || str(data.metadata.description),
    markdown: data.markdown,
    ...(format === 'html' ? { html: data.html } : {}),
    ...(format === 'text' ? { text: data.text } : {}),
    ...(format === 'json' && data.json !== undefined ? { json: data.json } : {}),
    ...(data.changeTracking ? { changeTracking: data.changeTracking } : {}),
    ...(data.summary !== undefined ? { summary: data.summary } : {}),
    metadata: data.metadata,
  };
}

/** A hit served from the embedded index's stored copy (no network needed). */
function storedResult(hit: SearchHit & { stored: NonNullable<SearchHit['stored']> }): SearchResult {
  return {
    url: hit.url,
    title: hit.title,
    description: hit.description,
    markdown: hit.stored.markdown,
    metadata: {
      title: hit.title || null,
      statusCode: 200,
      sourceURL: hit.url,
      language: hit.stored.language,
      cachedAt: hit.stored.updatedAt,
    },
  };
}

function failedResult(hit: SearchHit, err: unknown): SearchResult {
  const se = toServiceError(err);
  return {
    url: hit.url,
    title: hit.title,
    description: hit.description,
    markdown: null,
    error: se.code === 'INTERNAL' ? 'Internal error' : se.message,
    code: se.code,
  };
}

/**
 * One search (POST /v1/search and the Firecrawl-compatible routes): ask the configured provider,
 * then scrape every hit concurrently through the `scrape` queue within one time budget.
 * num_results × 2 credits are reserved up front and the call settles to 2 per result returned with
 * content: hits the provider did not return and pages that failed are refunded in one ledger row
 * (`search_refund`, same reference), so a failed page is never billed; a call that fails as a
 * whole is refunded completely (`runChargedWork`).
 */
export async function searchOperation(
  deps: GatewayDeps,
  auth: AuthContext,
  body: SearchBody,
  caller?: CallerResponse,
): Promise<{ results: SearchResult[]; creditsUsed: number }> {
  checkSearchChangeTracking(body);
  if (body.summary && body.scrape) requireModel(deps.deployment, 'The summary of search results');
  const budgetMs = body.timeout ?? deps.search.timeoutMs;
  const deadline = Date.now() + budgetMs;
  const requestId = randomUUID();
  // A summary is the extract model's work on each result: priced like one (SUMMARY_CREDITS).
  const perResult = CREDITS_PER_SEARCH_RESULT + (body.summary && body.scrape ? SUMMARY_CREDITS : 0);
  // The client going away cancels the hits' scrapes (and refunds them, as failed pages).
  const gone = caller ? callerGone(caller) : new AbortController().signal;
  const { value: results, cost } = await runChargedWork(
    deps,
    {
      accountId: auth.accountId,
      keyId: auth.keyId,
      headers: headerTargetOf(caller),
      requestId,
      reserve: body.num_results * perResult,
      reason: 'search',
      refundReason: 'search_refund',
    },
    async () => {
      const results = await searchAndScrape(deps, {
        body,
        budgetMs,
        deadline,
        requestId,
        accountId: auth.accountId,
        gone,
      });
      const delivered = results.filter((r) => r.markdown !== null).length;
      return { value: results, cost: delivered * perResult };
    },
  );
  return { results, creditsUsed: cost };
}

/** POST /v1/search: `searchOperation`, answered as `{ success, data, creditsUsed }`. */
export function searchRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.post('/v1/search', async (req, res) => {
    const body = parseBody(searchBody, req.body);
    const { results, creditsUsed } = await searchOperation(deps, authOf(res), body, res);
    res.json({ success: true, data: results, creditsUsed });
  });
  return router;
}

/** The provider's hits, each scraped (or served from its stored copy) unless `scrape: false`. */
async function searchAndScrape(
  deps: GatewayDeps,
  a: {
    body: SearchBody;
    budgetMs: number;
    deadline: number;
    requestId: string;
    accountId: string;
    gone: AbortSignal;
  },
): Promise<SearchResult[]> {
  const { body } = a;
  const hits = (
    await deps.search.provider.search(
      {
        query: body.query,
        numResults: body.num_results,
        accountId: a.accountId,
        ...(body.country ? { country: body.country } : {}),
        ...(body.lang ? { lang: body.lang } : {}),
      },
      AbortSignal.timeout(a.budgetMs),
    )
  ).slice(0, body.num_results);
  if (!body.scrape) return hits.map((h) => ({ url: h.url, title: h.title, description: h.description }));
  // Stored copies (embedded provider) answer offline; only markdown is stored, so other
  // formats, and `fresh: true`, scrape the page again.
  const useStored = (h: SearchHit) =>
    h.stored !== undefined &&
    !body.fresh &&
    body.format === 'markdown' &&
    !body.changeTracking &&
    !body.summary;
  const live = hits.filter((h) => !useStored(h));
  const scraped = await scrapeHits(deps, {
    hits: live,
    body,
    requestId: a.requestId,
    accountId: a.accountId,
    deadline: a.deadline,
    gone: a.gone,
  });
  const byHit = new Map(live.map((h, i) => [h, scraped[i]]));
  return hits.map((h) =>
    h.stored && useStored(h) ? storedResult({ ...h, stored: h.stored }) : (byHit.get(h) as SearchResult),
  );
}

/** Every hit's page via the `scrape` queue, concurrently; a page that fails is a result with an error. */
async function scrapeHits(
  deps: GatewayDeps,
  a: {
    hits: SearchHit[];
    body: SearchBody;
    requestId: string;
    accountId: string;
    deadline: number;
    gone: AbortSignal;
  },
): Promise<SearchResult[]> {
  const page = trackedPage(a.body);
  // The page's own budget ends a little before ours, so the worker's TIMEOUT error wins the race.
  const pageBudget = Math.min(120_000, Math.max(1_000, a.deadline - Date.now() - 1_000));
  const jobs: Array<{ job: Job } | { error: unknown }> = await Promise.all(
    a.hits.map(async (hit, i) => {
      let url: string;
      try {
        url = normalizeTargetUrl(hit.url, { prependHttps: false });
      } catch (error) {
        return { error };
      }
      const jobId = `${a.requestId}-${i}`;
      // Queue unavailable: the whole call fails (503, fully refunded) rather than N failed pages.
      const job = await deps.producer.enqueue(
        'scrape',
        {
          requestId: jobId,
          accountId: a.accountId,
          url,
          format: a.body.format,
          onlyMainContent: a.body.onlyMainContent,
          ...(a.body.summary ? { page: { formats: summaryFormats(a.body.format) } } : {}),
          timeoutMs: pageBudget,
          ...(page ? { page } : {}),
          // Every worker stops the page when our budget ends, whether or not a cancel reaches it.
          deadlineAt: a.deadline,
        },
        { jobId },
      );
      return { job };
    }),
  );
  return Promise.all(
    a.hits.map(async (hit, i): Promise<SearchResult> => {
      const entry = jobs[i];
      if (!entry || 'error' in entry) return failedResult(hit, entry?.error);
      const waitMs = a.deadline - Date.now();
      if (waitMs <= 0) {
        // Not waited for at all: cancelled like a wait that timed out (its deadline stops it anyway).
        await deps.producer.cancel('scrape', entry.job.id ?? '', 'timeout');
        return failedResult(hit, new TimeoutError('The search time budget ran out; retry'));
      }
      try {
        // A wait that gives up (budget, client gone, shutdown) cancels its scrape.
        const r = await deps.producer.waitFor('scrape', entry.job, waitMs, { signal: a.gone });
        return scrapedResult(hit, r.data, a.body.format);
      } catch (err) {
        // The hit shows only "Internal error": the log keeps why (e.g. a result outside the contract).
        if (toServiceError(err).code === 'INTERNAL')
          deps.logger.error({ err, url: hit.url }, 'search hit failed');
        return failedResult(hit, err);
      }
    }),
  );
}

/**
 * `changeTracking: true`: the hits' page options ask for that format beside what `format` gives
 * (markdown always; html, text or json when asked), so `data` keeps the fields search returns.
 */
function trackedPage(body: SearchBody): PageOptions | undefined {
  if (!body.changeTracking) return undefined;
  const formats: NonNullable<PageOptions['formats']> = ['markdown', 'changeTracking'];
  if (body.format !== 'markdown') formats.push(body.format);
  return {
    formats,
    ...(body.changeTrackingOptions ? { changeTrackingOptions: body.changeTrackingOptions } : {}),
  };
}

/** The format's rules (page-options.ts) for search's two fields. */
export function checkSearchChangeTracking(body: SearchBody): void {
  if (!body.changeTracking && body.changeTrackingOptions === undefined) return;
  // Each hit would take the model twice within the search's one budget: scrape the hits instead.
  if (body.changeTrackingOptions?.modes?.includes('json')) {
    throw new ValidationError(
      'changeTrackingOptions.modes: the "json" mode is not available on search; scrape the hits (/v1/scrape or a batch) with it',
      { details: { field: 'changeTrackingOptions.modes' } },
    );
  }
  checkPageOptions({
    formats: body.changeTracking ? ['markdown', 'changeTracking'] : ['markdown'],
    ...(body.changeTrackingOptions ? { changeTrackingOptions: body.changeTrackingOptions } : {}),
  });
}
