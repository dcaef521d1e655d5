/**
 * Monitor checks are conditional: each sends the last successful check's validators (ETag,
 * Last-Modified); a 304 is a check without change (billed as a check, nothing downloaded or
 * converted), a 200 is compared as always. The site counts its requests and body bytes.
 */
import { type ConditionalSite, startConditionalSite } from '@wcs/testing';
import request from 'supertest';
import { balanceOf, createTestAccount, pollUntil, type Stack, startStack, type TestAccount } from './harness';

/** hourly = 2 s in this file. */
const INTERVAL_MS = 2_000;

type Detail = {
  checkCount: number;
  changes: Array<{ hash: string; snapshot: string }>;
  checks: Array<{ checkedAt: string; changed: boolean; hash?: string; code?: string }>;
};

let stack: Stack;
let site: ConditionalSite;
let account: TestAccount;
let id: string;

beforeAll(async () => {
  site = await startConditionalSite({ pages: 2, links: 1 });
  stack = await startStack({
    monitorScheduler: true,
    worker: false,
    env: { MONITOR_INTERVAL_SCALE: String(INTERVAL_MS / 3_600_000), MONITOR_RESUME_SWEEP_MS: '300' },
  });
  account = await createTestAccount({ credits: 100 });
});
afterAll(async () => {
  if (id) await request(stack.url).delete(`/v1/monitor/${id}`).set(account.auth);
  await stack?.close();
  await site?.close();
});

async function detail(): Promise<Detail> {
  const res = await request(stack.url).get(`/v1/monitor/${id}`).set(account.auth).expect(200);
  return res.body.data as Detail;
}
/** Wait until the monitor has at least `n` checks (checks are listed newest first). */
function checks(n: number): Promise<Detail> {
  return pollUntil(
    async () => {
      const d = await detail();
      return d.checkCount >= n ? d : undefined;
    },
    n * INTERVAL_MS * 4 + 10_000,
  );
}
const pageRequests = () => site.requests.filter((r) => r.path === '/page/0');

test('a 304 is a check without change; a changed page is a change; validators follow the page', async () => {
  const res = await request(stack.url)
    .post('/v1/monitor')
    .set(account.auth)
    .send({ url: `${site.url}/page/0`, interval: 'hourly' })
    .expect(201);
  id = res.body.data.id as string;

  // The baseline asks unconditionally; once it is recorded, every check sends its validators and
  // gets a 304 (a check that began before the baseline was recorded may still ask plainly).
  await pollUntil(
    async () => (pageRequests().filter((r) => r.status === 304).length >= 2 ? true : undefined),
    60_000,
  );
  const afterThree = await detail();
  const reqs = pageRequests();
  expect(reqs[0]?.ifNoneMatch).toBeUndefined();
  const firstConditional = reqs.findIndex((r) => r.ifNoneMatch !== undefined);
  for (const r of reqs.slice(firstConditional)) {
    expect(r).toMatchObject({
      status: 304,
      ifNoneMatch: site.validators(0).etag,
      ifModifiedSince: site.validators(0).lastModified,
    });
  }
  const baselineHash = afterThree.checks.at(-1)?.hash;
  expect(baselineHash).toMatch(/^[0-9a-f]{64}$/);
  for (const c of afterThree.checks) {
    expect(c.changed).toBe(false);
    expect(c.hash).toBe(baselineHash);
  }
  expect(afterThree.changes).toHaveLength(0);
  // Every check is billed as one (a 304 included), whatever it downloaded.
  // (Checks go on meanwhile: the charge lies between the counts read before and after the balance.)
  const balance = await balanceOf(account.accountId);
  const countAfter = (await detail()).checkCount;
  expect(100 - balance).toBeGreaterThanOrEqual(afterThree.checkCount);
  expect(100 - balance).toBeLessThanOrEqual(countAfter);

  // The page changes: the stale validators get a 200, the check records a change.
  const seen = pageRequests().length;
  site.change(0);
  const changed = await pollUntil(async () => {
    const d = await detail();
    return d.changes.length > 0 ? d : undefined;
  }, 30_000);
  expect(changed.changes[0]?.snapshot).toContain('Version 1 of page 0');
  const after = pageRequests().slice(seen);
  expect(after.find((r) => r.status === 200)?.ifNoneMatch).toBeDefined();

  // Later checks send the new page's validators and get 304s again, with no change.
  const etag = site.validators(0).etag;
  await pollUntil(
    async () =>
      pageRequests().filter((r) => r.ifNoneMatch === etag && r.status === 304).length >= 2 ? true : undefined,
    60_000,
  );
  const later = await detail();
  expect(later.changes).toHaveLength(1);
  expect(later.checks[0]?.changed).toBe(false);
});

test('a site that ignores the validators is checked the normal way (200, compared, no change)', async () => {
  site.setIgnoreValidators(true);
  site.resetCounts();
  await pollUntil(async () => (site.counts().ok >= 2 ? true : undefined), 60_000);
  // The check of the second 200 answer is recorded once its fetch is: wait for it.
  const count = (await detail()).checkCount;
  const d = await checks(count + 1);
  expect(site.counts().notModified).toBe(0);
  expect(d.changes).toHaveLength(1);
  for (const c of d.checks.slice(0, 2)) expect(c.changed).toBe(false);
});
