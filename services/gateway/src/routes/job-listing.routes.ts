import type { JobResultDetail, JobResultRow } from '@wcs/db';
import { NotFoundError } from '@wcs/errors';
import { Router } from 'express';
import type {
  batchListResponse,
  batchResultResponse,
  batchResultsResponse,
  batchSummary,
  crawlListResponse,
  crawlResultResponse,
  crawlResultsResponse,
  crawlSummary,
} from '../contract/account.responses';
import type { Body } from '../contract/responses';
import type { GatewayDeps } from '../deps';
import { authOf } from '../middleware/auth.middleware';
import { pagingQuery, parseQuery } from '../validation/parse-query';

const listQuery = pagingQuery(20, 100);
const resultsQuery = pagingQuery(50, 500);

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

function nextPath(base: string, skip: number, limit: number, total: number): { next?: string } {
  return skip + limit < total ? { next: `${base}?skip=${skip + limit}&limit=${limit}` } : {};
}

const common = (r: JobResultRow | JobResultDetail) => ({
  url: r.url,
  status: r.status,
  error: r.error,
  code: r.code,
});

/**
 * The account's batches and crawls as lists, and their results one row at a time with a link to each
 * stored document. Status and counts of a single job stay at GET /v1/batch/scrape/:id
 * and GET /v1/crawl/:id; ids of other accounts are 404 like unknown ones.
 */
export function jobListingRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.get('/v1/batch/scrape', async (req, res) => {
    const auth = authOf(res);
    const { skip, limit } = parseQuery(listQuery, req.query);
    const { total, rows } = await deps.jobs.listBatches(auth.accountId, skip, limit);
    res.json({
      success: true,
      total,
      data: rows.map((b) => ({
        ...b,
        status: b.status as Body<typeof batchSummary>['status'],
        createdAt: b.createdAt.toISOString(),
        finishedAt: iso(b.finishedAt),
      })),
      ...nextPath('/v1/batch/scrape', skip, limit, total),
    } satisfies Body<typeof batchListResponse>);
  });

  router.get('/v1/batch/scrape/:id/results', async (req, res) => {
    const auth = authOf(res);
    const { skip, limit } = parseQuery(resultsQuery, req.query);
    const id = String(req.params.id);
    const page = await deps.jobs.batchResults(auth.accountId, id, skip, limit);
    if (!page) throw new NotFoundError('Batch not found');
    res.json({
      success: true,
      total: page.total,
      data: page.rows.map((r) => ({ itemId: r.id, position: r.position, title: r.title, ...common(r) })),
      ...nextPath(`/v1/batch/scrape/${id}/results`, skip, limit, page.total),
    } satisfies Body<typeof batchResultsResponse>);
  });

  router.get('/v1/batch/scrape/:id/results/:itemId', async (req, res) => {
    const auth = authOf(res);
    const r = await deps.jobs.batchResult(auth.accountId, String(req.params.id), String(req.params.itemId));
    if (!r) throw new NotFoundError('Batch item not found');
    res.json({
      success: true,
      data: {
        itemId: r.id,
        position: r.position,
        ...common(r),
        document: r.document as Record<string, unknown> | null,
      },
    } satisfies Body<typeof batchResultResponse>);
  });

  router.get('/v1/crawl', async (req, res) => {
    const auth = authOf(res);
    const { skip, limit } = parseQuery(listQuery, req.query);
    const { total, rows } = await deps.jobs.listCrawls(auth.accountId, skip, limit);
    res.json({
      success: true,
      total,
      data: rows.map((c) => ({
        ...c,
        status: c.status as Body<typeof crawlSummary>['status'],
        createdAt: c.createdAt.toISOString(),
        finishedAt: iso(c.finishedAt),
      })),
      ...nextPath('/v1/crawl', skip, limit, total),
    } satisfies Body<typeof crawlListResponse>);
  });

  router.get('/v1/crawl/:id/results', async (req, res) => {
    const auth = authOf(res);
    const { skip, limit } = parseQuery(resultsQuery, req.query);
    const id = String(req.params.id);
    const page = await deps.jobs.crawlResults(auth.accountId, id, skip, limit);
    if (!page) throw new NotFoundError('Crawl not found');
    res.json({
      success: true,
      total: page.total,
      data: page.rows.map((r) => ({
        pageId: r.id,
        depth: r.position,
        statusCode: r.statusCode,
        title: r.title,
        ...common(r),
      })),
      ...nextPath(`/v1/crawl/${id}/results`, skip, limit, page.total),
    } satisfies Body<typeof crawlResultsResponse>);
  });

  router.get('/v1/crawl/:id/results/:pageId', async (req, res) => {
    const auth = authOf(res);
    const r = await deps.jobs.crawlResult(auth.accountId, String(req.params.id), String(req.params.pageId));
    if (!r) throw new NotFoundError('Crawl page not found');
    res.json({
      success: true,
      data: {
        pageId: r.id,
        depth: r.position,
        statusCode: r.statusCode,
        ...common(r),
        document: r.document as Record<string, unknown> | null,
      },
    } satisfies Body<typeof crawlResultResponse>);
  });

  return router;
}
