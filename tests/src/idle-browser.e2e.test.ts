/**
 * Chromium on demand, end to end: a started stack (gateway, scrape, crawl and map
 * workers in this process) runs no browser; a scrape of a page that needs JavaScript launches one,
 * and BROWSER_IDLE_CLOSE_MS after it the whole Chromium process tree is gone again.
 */
import {
  chromiumPids,
  type FixtureSite,
  JS_ONLY_TEXT,
  processAlive,
  processStat,
  startFixtureSite,
} from '@wcs/testing';
import request from 'supertest';
import { createTestAccount, pollUntil, type Stack, startStack, type TestAccount } from './harness';

const alive = processAlive;

/** "pid (comm) state S ppid P", for a failure message. */
function describeProcess(pid: number): string {
  const stat = processStat(pid);
  return stat ? `${pid} (${stat.comm}) state ${stat.state} ppid ${stat.ppid}` : `${pid} (gone)`;
}

let stack: Stack;
let site: FixtureSite;
let account: TestAccount;

beforeAll(async () => {
  site = await startFixtureSite({ pages: 2 });
  stack = await startStack({
    worker: true,
    crawlWorker: true,
    mapWorker: true,
    env: { BROWSER_IDLE_CLOSE_MS: '500' },
  });
  account = await createTestAccount({ credits: 20 });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

describe('an idle stack runs no browser', () => {
  it('starts without Chromium', () => {
    expect(chromiumPids()).toEqual([]);
  });

  it('launches Chromium for a page that needs JavaScript and closes it BROWSER_IDLE_CLOSE_MS after', async () => {
    // Sampled while the scrape runs: which browser processes it started.
    const seen = new Set<number>();
    const sampler = setInterval(() => {
      for (const pid of chromiumPids()) seen.add(pid);
    }, 50);
    let res: request.Response;
    try {
      res = await request(stack.url)
        .post('/v1/scrape')
        .set(account.auth)
        .send({ url: `${site.url}/js-only`, formats: ['markdown'] });
    } finally {
      clearInterval(sampler);
    }
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain(JS_ONLY_TEXT); // only the browser renders this text
    expect(seen.size).toBeGreaterThan(0);

    // The bound is generous on purpose (a loaded CI machine closes Chromium slowly); what is
    // asserted is that the tree goes at all, and a failure names what was left and its state.
    await pollUntil(
      async () => {
        const left = [...new Set([...chromiumPids(), ...seen])].filter(alive);
        if (left.length === 0) return true;
        throw new Error(`still alive: ${left.map(describeProcess).join('; ')}`);
      },
      60_000,
      50,
    );
  });
});
