/**
 * Firecrawl-compatible crawl: POST `/v2/crawl`, GET/DELETE `/v2/crawl/:id`,
 * GET `/v2/crawl/:id/errors`, GET `/v2/crawl/active` (or `/ongoing`), and the same under `/v1`. The native
 * operations of ../routes/crawl.routes run everything; this file translates requests and answers.
 */
import type { CrawlView } from '@wcs/db';
import { NotFoundError } from '@wcs/errors';
import { type Request, type Response, Router } from 'express';
import { crawlBody, MAX_CRAWL_PAGES } from '../contract/crawl.request';
import type { GatewayDeps } from '../deps';
import { authOf } from '../middleware/auth.middleware';
import { batchStatusOperation } from '../routes/batch.routes';
import {
  cancelCrawlOperation,
  crawlCreditHeaders,
  crawlStatusOperation,
  removedPagesOf,
  startCrawlOperation,
} from '../routes/crawl.routes';
import { parseBody } from '../validation/parse-body';
import { batchErrors, batchStatusResponse, doneItemsPage } from './batch.compat';
import { firecrawlCrawlV1, firecrawlCrawlV2, toNativeCrawlV1, toNativeCrawlV2 } from './crawl-request.compat';
import {
  compatUrl,
  crawlStatusOf,
  cutStatusPage,
  expiresAtOf,
  parseStatusPageQuery,
  statusBody,
  storedDocument,
} from './job-status.compat';

/** Failed pages read for /errors, in chunks (a crawl has at most MAX_CRAWL_PAGES pages). */
const ERRORS_CHUNK = 1_000;

async function startCrawl(deps: GatewayDeps, req: Request, res: Response, version: 'v1' | 'v2') {
  const native =
    version === 'v2'
      ? toNativeCrawlV2(parseBody(firecrawlCrawlV2, req.body))
      : toNativeCrawlV1(parseBody(firecrawlCrawlV1, req.body));
  const body = parseBody(crawlBody, native.body);
  const auth = authOf(res);
  const { crawlId } = await startCrawlOperation(deps, auth, body);
  await crawlCreditHeaders(deps, res, auth, 0);
  // 200, not the native 202: the SDKs treat anything else as a failure.
  res.status(200).json({ success: true, id: crawlId, url: compatUrl(req, `/${version}/crawl/${crawlId}`) });
}

async function crawlStatusResponse(
  deps: GatewayDeps,
  req: Request,
  crawl: CrawlView,
  path: string,
): Promise<Record<string, unknown>> {
  const q = parseStatusPageQuery(req.query);
  const rows =
    crawl.completed > q.skip ? await deps.crawls.listPages(crawl.crawlId, 'done', q.skip, q.limit) : [];
  const page = cutStatusPage(
    rows,
    (p) => storedDocument(p.result, { url: p.url, statusCode: p.statusCode }),
    {
      skip: q.skip,
      available: crawl.completed,
    },
  );
  const limit = req.query.limit !== undefined ? `&limit=${q.limit}` : '';
  // Ours (as on /v1/crawl/:id): a changeTracking recrawl's pages the previous crawl had and this one lacks.
  const removed = q.skip === 0 ? await removedPagesOf(deps, crawl) : undefined;
  const body = statusBody({
    status: crawlStatusOf(crawl),
    completed: crawl.completed,
    total: crawl.discovered,
    creditsUsed: crawl.creditsUsed,
    expiresAt: expiresAtOf(crawl.createdAt, crawl.finishedAt),
    page,
    nextUrl: (skip) => compatUrl(req, `${path}?skip=${skip}${limit}`),
    error: crawl.error,
  });
  return removed ? { ...body, removed } : body;
}

/** Failed pages in Firecrawl's errors shape. Robots-blocked links are filtered out unrecorded. */
async function crawlErrors(deps: GatewayDeps, crawl: CrawlView): Promise<Record<string, unknown>> {
  const failed = [];
  for (let skip = 0; skip < Math.min(crawl.failed, MAX_CRAWL_PAGES); skip += ERRORS_CHUNK) {
    failed.push(...(await deps.crawls.listPages(crawl.crawlId, 'failed', skip, ERRORS_CHUNK)));
  }
  return {
    success: true,
    errors: failed.map((p) => ({
      id: p.pageId,
      ...(p.finishedAt ? { timestamp: p.finishedAt.toISOString() } : {}),
      url: p.url,
      error: p.error ?? 'Page failed',
      ...(p.errorCode ? { code: p.errorCode } : {}),
    })),
    robotsBlocked: [],
  };
}

/**
 * v1 clients poll `/v1/crawl/:id` for batches too (FirecrawlAppV1.batchScrapeUrls does), as
 * Firecrawl keeps both in one store: an id that is not a crawl is tried as a batch.
 */
async function crawlOrBatch<T>(crawl: () => Promise<T>, batch: () => Promise<T>): Promise<T> {
  try {
    return await crawl();
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    try {
      return await batch();
    } catch (err2) {
      if (err2 instanceof NotFoundError) throw err;
      throw err2;
    }
  }
}

export function crawlCompatRoutes(deps: GatewayDeps): Router {
  const router = Router();
  for (const version of ['v1', 'v2'] as const) {
    router.post(`/${version}/crawl`, (req, res) => startCrawl(deps, req, res, version));

    // Firecrawl serves both names.
    router.get([`/${version}/crawl/active`, `/${version}/crawl/ongoing`], async (_req, res) => {
      const auth = authOf(res);
      const { rows } = await deps.jobs.listCrawls(auth.accountId, 0, 100);
      const running = rows.filter((c) => c.status === 'pending' || c.status === 'processing');
      res.json({
        success: true,
        crawls: running.map((c) => ({ id: c.id, teamId: auth.accountId, url: c.url, options: null })),
      });
    });

    router.get(`/${version}/crawl/:id`, async (req, res) => {
      const auth = authOf(res);
      const id = String(req.params.id);
      const path = `/${version}/crawl/${id}`;
      const status = () =>
        crawlStatusOperation(deps, auth, id).then(async (c) => {
          await crawlCreditHeaders(deps, res, auth, c.creditsUsed);
          return crawlStatusResponse(deps, req, c, path);
        });
      if (version === 'v2') return void res.json(await status());
      const body = await crawlOrBatch(status, () =>
        batchStatusOperation(deps, auth, id, doneItemsPage(req)).then(async (b) => {
          await crawlCreditHeaders(deps, res, auth, b.creditsUsed);
          return batchStatusResponse(req, b, path);
        }),
      );
      res.json(body);
    });

    router.delete(`/${version}/crawl/:id`, async (req, res) => {
      const crawl = await cancelCrawlOperation(deps, authOf(res), String(req.params.id));
      res.json({ success: true, status: crawlStatusOf(crawl) });
    });

    const errors = async (req: Request, res: Response) => {
      const auth = authOf(res);
      const id = String(req.params.id);
      const crawlErr = () => crawlStatusOperation(deps, auth, id).then((c) => crawlErrors(deps, c));
      if (version === 'v2') return void res.json(await crawlErr());
      res.json(await crawlOrBatch(crawlErr, () => batchStatusOperation(deps, auth, id).then(batchErrors)));
    };
    router.get(`/${version}/crawl/:id/errors`, errors);
    // FirecrawlAppV1.checkCrawlErrors sends a DELETE to this path.
    if (version === 'v1') router.delete('/v1/crawl/:id/errors', errors);
  }
  return router;
}
