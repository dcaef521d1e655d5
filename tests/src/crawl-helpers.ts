import type { CrawledPage, CrawlStatus } from '@wcs/client-node';
import { CreditsRepository, createDb } from '@wcs/db';
import request from 'supertest';
import { pollUntil, TEST_DATABASE_URL } from './harness';

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
): Promise<Array<{ reason: string; amount: number; reference: string | null }>> {
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
