import { type ChildProcess, spawn } from 'node:child_process';
import { compiledService } from '@wcs/runtime';
import { type FixtureSite, startFixtureSite, treeSize } from '@wcs/testing';
import { crawlStatus, fetched, ledgerOf, startCrawl, unfinishedPages, waitForCrawl } from './crawl-helpers';
import { balanceOf, createTestAccount, pollUntil, type Stack, startStack } from './harness';

// Short locks so a killed worker's jobs come back within seconds.
const RECOVERY_ENV = {
  WORKER_LOCK_MS: '2000',
  WORKER_STALLED_INTERVAL_MS: '1000',
  CRAWL_PAGE_TIMEOUT_MS: '3000',
};

function spawnCrawlWorker(env: Record<string, string>): ChildProcess {
  const { cwd, args } = compiledService('crawl-worker');
  return spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    stdio: 'ignore',
  });
}

function waitExit(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ pages: 3, tree: { branching: 4, depth: 3 }, sitemapPaths: [] });
});
afterAll(async () => {
  await site?.close();
});

const TREE = treeSize(4, 3); // 85 pages

it('two crawl-worker processes share one crawl without fetching any page twice', async () => {
  const stack = await startStack({ worker: false, env: RECOVERY_ENV });
  const env = { ...stack.env, ...RECOVERY_ENV, WORKER_CONCURRENCY: '4', CRAWL_HOST_CONCURRENCY: '6' };
  const workers = [spawnCrawlWorker(env), spawnCrawlWorker(env)];
  try {
    const account = await createTestAccount({ credits: 200 });
    const id = await startCrawl(stack.url, account.auth, {
      url: `${site.url}/tree`,
      maxDepth: 3,
      includePaths: ['^/tree'],
    });
    const done = await waitForCrawl(stack.url, id, account.auth, 90_000);
    expect(done).toMatchObject({
      status: 'done',
      stopReason: 'completed',
      total: TREE,
      completed: TREE,
      failed: 0,
    });
    expect(done.creditsUsed).toBe(TREE);
    const paths = site.requests.filter((r) => r.path.startsWith('/tree')).map((r) => r.path);
    expect(paths).toHaveLength(TREE);
    expect(new Set(paths).size).toBe(TREE);
    expect(await balanceOf(account.accountId)).toBe(200 - TREE);
    // Both processes were alive throughout (neither crashed and left the other to do it all).
    expect(workers.every((w) => w.exitCode === null)).toBe(true);
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await Promise.all(workers.map(waitExit));
    await stack.close();
  }
});

it('a crawl survives a killed crawl-worker: nothing lost, each page billed once', async () => {
  site.requests.length = 0;
  const stack = await startStack({ worker: false, env: RECOVERY_ENV });
  const env = { ...stack.env, ...RECOVERY_ENV, WORKER_CONCURRENCY: '2' };
  const victim = spawnCrawlWorker(env);
  let rescuer: Stack | null = null;
  try {
    const account = await createTestAccount({ credits: 200 });
    // delayMs keeps the crawl slow enough to kill it half way.
    const id = await startCrawl(stack.url, account.auth, {
      url: `${site.url}/tree`,
      maxDepth: 3,
      delayMs: 60,
      includePaths: ['^/tree'],
    });
    await pollUntil(
      async () => ((await crawlStatus(stack.url, id, account.auth)).completed >= 8 ? true : undefined),
      60_000,
      50,
    );
    victim.kill('SIGKILL');
    await waitExit(victim);
    const atKill = await crawlStatus(stack.url, id, account.auth);
    expect(atKill.status).toBe('processing');
    expect(atKill.completed).toBeLessThan(TREE);

    // Another worker takes over: stalled jobs come back, queued ones were waiting in Redis.
    // Its own locks are long: on a loaded machine a late renewal of a 2 s lock stalls jobs still
    // running here, and BullMQ fails a job stalled three times (its page then waits for the reconciler).
    // Its reconciler re-enqueues stranded pages after seconds, as production's does after 30 s (a
    // page the victim claimed and died before enqueuing): the test stacks' default leaves them 10
    // minutes, for files sharing the database, and this file runs alone (scripts/test.sh).
    rescuer = await startStack({
      worker: false,
      crawlWorker: true,
      env: {
        ...RECOVERY_ENV,
        WORKER_LOCK_MS: '15000',
        CRAWL_RECONCILE_MIN_AGE_MS: '5000',
        QUEUE_PREFIX: stack.env.QUEUE_PREFIX ?? '',
      },
    });
    const done = await waitForCrawl(stack.url, id, account.auth, 150_000).catch(async (err: Error) => {
      throw new Error(`${err.message}; ${await unfinishedPages(id, stack.env.QUEUE_PREFIX ?? '')}`);
    });
    expect(done).toMatchObject({
      status: 'done',
      total: TREE,
      completed: TREE,
      failed: 0,
      creditsUsed: TREE,
    });
    expect(new Set(done.pages.map((p) => p.url)).size).toBe(TREE);
    // Billed once per page, whatever ran twice.
    expect(await balanceOf(account.accountId)).toBe(200 - TREE);
    const rows = (await ledgerOf(account.accountId)).filter((r) => r.reason === 'crawl');
    expect(new Set(rows.map((r) => r.reference)).size).toBe(TREE);
    expect(rows).toHaveLength(TREE);
    // Only the pages in flight when the worker died (≤ its concurrency) were fetched again.
    const treeFetches = fetched(site, '/tree');
    expect(new Set(treeFetches).size).toBe(TREE);
    expect(treeFetches.length).toBeLessThanOrEqual(TREE + 2);
  } finally {
    victim.kill('SIGKILL');
    await rescuer?.close();
    await stack.close();
  }
  // its own deadlines (60 s to reach the kill point, 150 s for the rescue: 10 s alone, 40 s beside
  // 12 busy loops on 2 cores) must fire before jest's
}, 240_000);

it('a crawl-worker process survives pages whose target refuses connections (retried, then failed)', async () => {
  // Regression: a rejected promise returned from a catch before an awaiting finally was briefly
  // unhandled, and Node's default for that is to kill the process.
  const stack = await startStack({ worker: false, env: RECOVERY_ENV });
  const worker = spawnCrawlWorker({ ...stack.env, ...RECOVERY_ENV });
  try {
    const closed = await startFixtureSite();
    const url = `${closed.url}/`;
    await closed.close();
    const account = await createTestAccount({ credits: 10 });
    const id = await startCrawl(stack.url, account.auth, { url, maxDepth: 1 });
    const done = await waitForCrawl(stack.url, id, account.auth, 60_000);
    expect(done).toMatchObject({
      status: 'failed',
      stopReason: 'error',
      error: expect.stringMatching(/\(TARGET_UNREACHABLE\)/),
      completed: 0,
      failed: 1,
      creditsUsed: 0,
    });
    expect(done.failedPages[0]).toMatchObject({ url, code: 'TARGET_UNREACHABLE' });
    expect(worker.exitCode).toBeNull();
    expect(worker.signalCode).toBeNull();
  } finally {
    worker.kill('SIGTERM');
    await waitExit(worker);
    await stack.close();
  }
});
