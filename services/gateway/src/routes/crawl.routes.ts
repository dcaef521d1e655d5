import { type CrawlPageView, type CrawlView, keyBudgetResets } from '@wcs/db';
import { compilePathRules, resolveUrl } from '@wcs/discovery';
import {
  InsufficientCreditsError,
  InvalidUrlError,
  KeyBudgetExceededError,
  NotFoundError,
  ValidationError,
} from '@wcs/errors';
import { Router } from 'express';
import { z } from 'zod';
import { type CrawlBody, crawlBody } from '../contract/crawl.request';
import type { Body, crawlStartResponse } from '../contract/responses';
import type { AuthContext, GatewayDeps } from '../deps';
import { type CreditHeaderTarget, setCreditHeaders } from '../jobs/credit-headers';
import { authOf } from '../middleware/auth.middleware';
import { assertFetchableLater } from '../validation/fetch-later-url';
import { checkJobWebhook } from '../validation/job-webhook';
import { requireModelForPage } from '../validation/model-check';
import { checkPageOptions } from '../validation/page-options';
import { parseBody } from '../validation/parse-body';
import { normalizeTargetUrl } from '../validation/target-url';

const DEFAULT_PAGE_LIMIT = 100;
const MAX_PAGE_LIMIT = 1_000;

const pageQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TERMINAL = new Set(['done', 'failed']);

/** A done page: url, markdown, metadata, plus the format asked for (html/text/json). */
function pageOut(p: CrawlPageView): Record<string, unknown> {
  const result = (p.result ?? {}) as Record<string, unknown>;
  return { url: p.url, ...result };
}

function failedOut(p: CrawlPageView): Record<string, unknown> {
  return {
    url: p.url,
    error: p.error ?? 'Page failed',
    code: p.errorCode ?? 'INTERNAL',
    ...(p.statusCode !== null ? { statusCode: p.statusCode } : {}),
  };
}

function statusOut(c: CrawlView): Record<string, unknown> {
  return {
    success: true,
    id: c.crawlId,
    status: c.status,
    url: c.url,
    total: c.discovered,
    completed: c.completed,
    failed: c.failed,
    creditsUsed: c.creditsUsed,
    // A capped frontier records max_pages while running; the reason only counts once terminal.
    ...(TERMINAL.has(c.status) && c.stopReason ? { stopReason: c.stopReason } : {}),
    ...(c.error ? { error: c.error } : {}),
  };
}

/**
 * A finished crawl with the `changeTracking` format: the pages the same account's previous crawl
 * of the same start URL (and tag) returned that this one did not reach. Undefined otherwise.
 */
export async function removedPagesOf(deps: GatewayDeps, crawl: CrawlView): Promise<string[] | undefined> {
  const page = crawl.options.page as
    | { formats?: string[]; changeTrackingOptions?: { tag?: string } }
    | undefined;
  if (crawl.status !== 'done' || !page?.formats?.includes('changeTracking')) return undefined;
  return deps.crawlChanges.removedPages(crawl, page.changeTrackingOptions?.tag ?? null);
}

/**
 * Start a crawl (POST /v1/crawl and the Firecrawl-compatible routes): checks the URL, the path
 * rules, the address policy and the balance, stores the crawl and enqueues its start job.
 */
export async function startCrawlOperation(
  deps: GatewayDeps,
  auth: AuthContext,
  body: CrawlBody,
): Promise<{ crawlId: string; url: string }> {
  const target = normalizeTargetUrl(body.url, { prependHttps: true });
  // Fetched exactly as sent (only the fragment goes): `/docs/` and `/docs` are two resources.
  const url = resolveUrl(target);
  if (!url) throw new InvalidUrlError(`url: "${body.url.slice(0, 200)}" is not a crawlable URL`);
  // Throws ValidationError naming the bad pattern (includePaths.2: …).
  compilePathRules({ includePaths: body.includePaths, excludePaths: body.excludePaths });
  const page = checkPageOptions(body.scrapeOptions ?? {}, { prefix: 'scrapeOptions.' });
  if (body.trustSitemapLastmod) checkTrustSitemapLastmod(body);
  requireModelForPage(deps.deployment, page.options);
  // A private start URL is refused now, not reported later as a failed crawl.
  await assertFetchableLater(url, deps.settings);
  const webhook = body.webhook !== undefined ? await checkJobWebhook(body.webhook, deps.settings) : undefined;
  const balance = await deps.credits.balance(auth.accountId);
  if (balance <= 0) {
    throw new InsufficientCreditsError('Insufficient credits: a crawl needs at least 1 credit (1 per page)', {
      details: { required: 1, balance },
    });
  }
  await assertKeyHasRoom(deps, auth);
  const { url: _asked, scrapeOptions: _page, webhook: _webhook, ...options } = body;
  const { crawlId } = await deps.crawls.create({
    accountId: auth.accountId,
    apiKeyId: auth.keyId,
    url,
    options: { ...options, ...(Object.keys(page.options).length > 0 ? { page: page.options } : {}) },
    ...(page.secrets ? { pageSecrets: page.secrets } : {}),
    // `satisfies`: a spread escapes excess-property checks, this keeps the repository's type binding.
    ...(webhook
      ? ({ webhook } satisfies Pick<Parameters<GatewayDeps['crawls']['create']>[0], 'webhook'>)
      : {}),
  });
  try {
    await deps.producer.enqueue('crawl', { crawlId }, { jobId: crawlId });
  } catch (err) {
    // The crawl is committed as `pending`; the crawl-worker's reconciler starts it once Redis is back.
    deps.logger.warn({ err, crawlId }, 'crawl enqueue failed; left to the reconciler');
  }
  return { crawlId, url };
}

/**
 * `trustSitemapLastmod` replaces a visit with the account's tracked copy: without the
 * `changeTracking` format there is no copy to trust, and without a sitemap no lastmod.
 */
function checkTrustSitemapLastmod(body: CrawlBody): void {
  const field = 'trustSitemapLastmod';
  if (!body.scrapeOptions?.formats?.includes('changeTracking')) {
    throw new ValidationError(
      `${field}: needs "changeTracking" in scrapeOptions.formats (a page not fetched is the account's tracked copy of it)`,
      { details: { field } },
    );
  }
  if (body.sitemap === 'skip') {
    throw new ValidationError(
      `${field}: needs the sitemap (sitemap "include" or "only", not "skip"): lastmod comes from it`,
      { details: { field } },
    );
  }
}

/**
 * A key at its daily or monthly limit cannot start a crawl (402 KEY_BUDGET_EXCEEDED), as an empty
 * balance cannot. The crawl's pages are charged per page against the same key
 * (complete_crawl_page): the crawl stops `key_budget_exceeded` at its limit.
 */
async function assertKeyHasRoom(deps: GatewayDeps, auth: AuthContext): Promise<void> {
  const key = await deps.apiKeys.getOwned(auth.accountId, auth.keyId);
  if (!key) return;
  const resets = keyBudgetResets();
  const full = (spent: number, limit: number | null) => limit !== null && spent + 1 > limit;
  const period = full(key.spentToday, key.dailyCreditLimit)
    ? { period: 'day', limit: key.dailyCreditLimit ?? 0, spent: key.spentToday, resetsAt: resets.day }
    : full(key.spentThisMonth, key.monthlyCreditLimit)
      ? {
          period: 'month',
          limit: key.monthlyCreditLimit ?? 0,
          spent: key.spentThisMonth,
          resetsAt: resets.month,
        }
      : null;
  if (!period) return;
  const resetsAt = period.resetsAt.toISOString();
  throw new KeyBudgetExceededError(
    `This API key's ${period.period === 'day' ? 'daily' : 'monthly'} credit limit (${period.limit}) is reached: a crawl needs at least 1 credit; it resets at ${resetsAt}`,
    { details: { period: period.period, limit: period.limit, spent: period.spent, required: 1, resetsAt } },
  );
}

/** The caller's crawl; unknown ids and other accounts' ids are the same 404. */
export async function crawlStatusOperation(
  deps: GatewayDeps,
  auth: AuthContext,
  id: string,
): Promise<CrawlView> {
  // Never confirm another account's job.
  const crawl = UUID.test(id) ? await deps.crawls.get(auth.accountId, id) : null;
  if (!crawl) throw new NotFoundError('Crawl not found');
  return crawl;
}

/**
 * A crawl pays per page as it goes (nothing at its start): `X-Credits-Used` is what the crawl has
 * cost so far (0 at the start), `X-Credits-Remaining` the account's balance now. A batch's status
 * says the same: what it kept so far (charged up front, its failed items refunded).
 */
export async function crawlCreditHeaders(
  deps: GatewayDeps,
  res: CreditHeaderTarget,
  auth: AuthContext,
  used: number,
): Promise<void> {
  setCreditHeaders(res, { used, remaining: await deps.credits.balance(auth.accountId) });
}

/** Cancel (idempotent): the crawl ends `failed` / `cancelled`; its queued jobs are removed. */
export async function cancelCrawlOperation(
  deps: GatewayDeps,
  auth: AuthContext,
  id: string,
): Promise<CrawlView> {
  const cancelled = UUID.test(id) ? await deps.crawls.cancel(auth.accountId, id) : null;
  if (!cancelled) throw new NotFoundError('Crawl not found');
  // Best effort: workers skip pages of a finished crawl anyway, these removals just save them the trip.
  try {
    await deps.producer.queue('crawl').remove(cancelled.crawl.crawlId);
    const pages = deps.producer.queue('crawl-page');
    for (let i = 0; i < cancelled.skippedPageIds.length; i += 200) {
      const chunk = cancelled.skippedPageIds.slice(i, i + 200);
      await Promise.all(chunk.map((jobId) => pages.remove(jobId).catch(() => 0)));
    }
  } catch (err) {
    deps.logger.warn({ err, crawlId: id }, 'removing cancelled crawl jobs failed');
  }
  return cancelled.crawl;
}

/** POST/GET/DELETE /v1/crawl; billing is per page, by the crawl-worker, as pages complete. */
export function crawlRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.post('/v1/crawl', async (req, res) => {
    const body = parseBody(crawlBody, req.body);
    const auth = authOf(res);
    const { crawlId, url } = await startCrawlOperation(deps, auth, body);
    await crawlCreditHeaders(deps, res, auth, 0);
    res.status(202).json({ success: true, id: crawlId, url } satisfies Body<typeof crawlStartResponse>);
  });

  router.get('/v1/crawl/:id', async (req, res) => {
    const auth = authOf(res);
    const id = String(req.params.id);
    const q = pageQuery.safeParse(req.query);
    if (!q.success) {
      throw new ValidationError(
        `skip and limit must be non-negative integers (1 ≤ limit ≤ ${MAX_PAGE_LIMIT})`,
      );
    }
    const crawl = await crawlStatusOperation(deps, auth, id);
    await crawlCreditHeaders(deps, res, auth, crawl.creditsUsed);
    const { skip, limit } = q.data;
    const [done, failed, removed] = await Promise.all([
      deps.crawls.listPages(crawl.crawlId, 'done', skip, limit),
      crawl.failed > skip ? deps.crawls.listPages(crawl.crawlId, 'failed', skip, limit) : Promise.resolve([]),
      // Listed once, with the first page of results.
      skip === 0 ? removedPagesOf(deps, crawl) : Promise.resolve(undefined),
    ]);
    const more = skip + limit < crawl.completed || skip + limit < crawl.failed;
    res.json({
      ...statusOut(crawl),
      pages: done.map(pageOut),
      failedPages: failed.map(failedOut),
      ...(removed ? { removed } : {}),
      ...(more ? { next: `/v1/crawl/${crawl.crawlId}?skip=${skip + limit}&limit=${limit}` } : {}),
    });
  });

  router.delete('/v1/crawl/:id', async (req, res) => {
    res.json(statusOut(await cancelCrawlOperation(deps, authOf(res), String(req.params.id))));
  });

  return router;
}
