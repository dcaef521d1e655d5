import type { CrawledPage, CrawlStatus } from '@wcs/client-node';
import { CreditsRepository, createDb } from '@wcs/db';
import { QueueProducer } from '@wcs/queues';
import request from 'supertest';
import { pollUntil, TEST_DATABASE_URL, TEST_REDIS_URL } from './harness';

/** The API's own response types (generated from /v1/openapi.json), not a copy of them. */
export type CrawlPage = CrawledPage;
export type CrawlStatusBody = CrawlStatus;

export async function crawlStatus(
  baseUrl: string,
  id: string,
  auth: Record<string, string>,
  query = '',
): Promise<CrawlStatusBody> {
  const res = await request(baseUrl).get(`/v1/crawl/${id}${query}`).set(auth);
  if (res.status !== 200) throw new Error(`GET crawl ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as CrawlStatusBody;
}

/** Poll until the crawl is terminal (done/failed), like the client libraries' crawlAndWait. */
export function waitForCrawl(
  baseUrl: string,
  id: string,
  auth: Record<string, string>,
  timeoutMs = 60_000,
): Promise<CrawlStatusBody> {
  return pollUntil(
    async () => {
      const b = await crawlStatus(baseUrl, id, auth, '?limit=1000');
      return b.status === 'done' || b.status === 'failed' ? b : undefined;
    },
    timeoutMs,
    100,
  );
}

export async function startCrawl(
  baseUrl: string,
  auth: Record<string, string>,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await request(baseUrl).post('/v1/crawl').set(auth).send(body);
  if (res.status !== 202) throw new Error(`POST /v1/crawl: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

export async function ledgerOf(
  accountId: string,
): Promise<Array<{ reason: string; amount: number; balanceAfter: number; reference: string | null }>> {
  const db = createDb(TEST_DATABASE_URL);
  try {
    return await new CreditsRepository(db).ledger(accountId, 1000);
  } finally {
    await db.close();
  }
}

/** Paths requested on the fixture site that start with `prefix` (query strings kept). */
export function fetched(
  site: { requests: Array<{ path: string; search: string }> },
  prefix: string,
): string[] {
  return site.requests.filter((r) => r.path.startsWith(prefix)).map((r) => `${r.path}${r.search}`);
}

/**
 * Why a crawl has not finished: its unfinished frontier rows, each with its crawl-page job's state
 * (a timed-out wait says which page is stuck where, instead of only that it timed out).
 */
export async function unfinishedPages(crawlId: string, prefix: string): Promise<string> {
  const db = createDb(TEST_DATABASE_URL);
  const producer = new QueueProducer(TEST_REDIS_URL, prefix);
  try {
    const rows = await db.prisma.$queryRaw<
      Array<{ id: string; url: string; status: string; attempts: number }>
    >`
      SELECT id::text, url, status, attempts FROM crawl_pages
      WHERE crawl_id = ${crawlId}::uuid AND status IN ('queued', 'running') ORDER BY created_at LIMIT 20`;
    const queue = producer.queue('crawl-page');
    const lines = await Promise.all(
      rows.map(async (r) => {
        const job = await queue.getJob(r.id);
        const state = job ? await job.getState() : 'no job';
        const why = job?.failedReason ? ` (${job.failedReason.slice(0, 200)})` : '';
        const runs = job ? ` made=${job.attemptsMade} stalled=${job.stalledCounter}` : '';
        return `${r.url} row=${r.status}/${r.attempts} job=${state}${runs}${why}`;
      }),
    );
    return lines.length ? lines.join('; ') : 'no unfinished pages';
  } finally {
    await producer.close();
    await db.close();
  }
}
