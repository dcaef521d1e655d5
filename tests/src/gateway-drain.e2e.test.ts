import { Agent, request } from 'node:http';
import { type FixtureSite, startFixtureSite } from '@wcs/testing';
import { balanceOf, createTestAccount, pollUntil, type Stack, startStack, type TestAccount } from './harness';

/**
 * Gateway shutdown drains: a scrape waiting on a slow page when shutdown starts still gets its
 * answer; one that outlives SHUTDOWN_DRAIN_MS is cut and shutdown ends in bounded time.
 */
let site: FixtureSite;
let account: TestAccount;
const stacks: Stack[] = [];

beforeAll(async () => {
  site = await startFixtureSite({ pages: 5 });
  account = await createTestAccount({ credits: 20 });
});
afterAll(async () => {
  for (const s of stacks) await s.close();
  await site?.close();
});

/** POST /v1/scrape over a keep-alive agent, as a real client would. */
function scrape(stack: Stack, path: string, agent: Agent) {
  const body = JSON.stringify({ url: `${site.url}${path}`, engine: 'fetch' });
  return new Promise<{ status: number; json: Record<string, unknown>; connection?: string }>(
    (resolve, reject) => {
      const req = request(
        `${stack.url}/v1/scrape`,
        {
          method: 'POST',
          agent,
          headers: {
            ...account.auth,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => {
            text += d;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              json: JSON.parse(text),
              connection: res.headers.connection,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    },
  );
}

/** Resolves once the fixture site has received a request for `path` (the scrape is in flight). */
const fetched = (path: string, search: string) =>
  pollUntil(
    async () => (site.requests.some((r) => r.path === path && r.search === search) ? true : undefined),
    30_000,
    20,
  );

describe('gateway shutdown', () => {
  it('lets a scrape in flight finish with its 200 before closing', async () => {
    const stack = await startStack({ env: { SHUTDOWN_DRAIN_MS: '15000' } });
    stacks.push(stack);
    const agent = new Agent({ keepAlive: true });
    try {
      const answer = scrape(stack, '/article/1?delay=1500', agent);
      await fetched('/article/1', '?delay=1500');
      let closedAt = 0;
      const closing = stack.gateway.close().then(() => {
        closedAt = Date.now();
      });
      const res = await answer;
      const answeredAt = Date.now();
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ success: true, data: { metadata: { statusCode: 200 } } });
      await closing;
      // The answer came before the gateway finished closing, and told the kept-alive client to
      // close its socket, so the socket did not hold the close open until its keep-alive timeout.
      expect(closedAt).toBeGreaterThanOrEqual(answeredAt);
      expect(res.connection).toBe('close');
      // Not accepting any more.
      await expect(scrape(stack, '/article/1', new Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      agent.destroy();
    }
  });

  it('cuts a scrape that outlives SHUTDOWN_DRAIN_MS; shutdown ends in bounded time', async () => {
    const stack = await startStack({ env: { SHUTDOWN_DRAIN_MS: '500' } });
    stacks.push(stack);
    const agent = new Agent({ keepAlive: true });
    const before = await balanceOf(account.accountId);
    try {
      const outcome = scrape(stack, '/article/2?delay=5000', agent).then(
        (r) => `answered ${r.status}`,
        (err: NodeJS.ErrnoException) => err.code,
      );
      await fetched('/article/2', '?delay=5000');
      const started = Date.now();
      await stack.gateway.close();
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(450);
      // Cut at SHUTDOWN_DRAIN_MS, not waited for (the page would answer after 5 s: 'answered 200').
      expect(await outcome).toBe('ECONNRESET'); // "socket hang up"
      // Closing the queues released the handler still waiting on the job: it refunded the charge.
      expect(await balanceOf(account.accountId)).toBe(before);
    } finally {
      agent.destroy();
    }
  });
});
