/**
 * The run command's one-process mode as a user gets it (`pnpm start --one-process`, which execs
 * `node scripts/dist/supervise.js --with-stores --one-process`): the supervisor runs ONE compiled
 * `node dist/main.js` (services/one-process) serving the same API — a scrape, a batch, a crawl and
 * a monitor work through it — restarts it when it dies, and stops it cleanly on SIGTERM.
 * Needs the build (scripts/test.sh runs it first).
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ONE_PROCESS, SERVICE_NODE_FLAGS } from '@wcs/runtime';
import { type FixtureSite, processTreeOf, startFixtureSite, type TreeProcess } from '@wcs/testing';
import request from 'supertest';
import { freePort } from '../faults/private-redis';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import { createTestAccount, pollUntil, type TestAccount } from './harness';
import { killSupervisorTree, spawnSupervisor } from './supervisor-process';

const ROOT = path.resolve(__dirname, '../..');

let supervisor: ChildProcess;
let site: FixtureSite;
let account: TestAccount;
let url = '';
let lines: string[] = [];
const monitors: string[] = [];

/** The supervisor's direct children (by working directory: services/<name>). */
function children(): TreeProcess[] {
  return processTreeOf(supervisor.pid as number).filter((p) => p.ppid === supervisor.pid);
}

async function healthy(): Promise<void> {
  await pollUntil(
    async () => {
      const res = await fetch(`${url}/healthz`).catch(() => undefined);
      return res?.ok ? true : undefined;
    },
    60_000,
    100,
  );
}

beforeAll(async () => {
  site = await startFixtureSite({ pages: 5 });
  account = await createTestAccount({ plan: 'hobby', credits: 1_000 });
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  ({ child: supervisor, lines } = spawnSupervisor(['--one-process'], {
    port,
    queuePrefix: 't-one',
    env: { ALLOW_PRIVATE_TARGETS: 'true' },
  }));
  await healthy();
}, 90_000);

afterAll(async () => {
  for (const id of monitors) {
    await fetch(`${url}/v1/monitor/${id}`, { method: 'DELETE', headers: account.auth }).catch(
      () => undefined,
    );
  }
  killSupervisorTree(supervisor);
  await site?.close();
});

it('runs exactly one compiled service process, every service inside it', async () => {
  const running = children();
  expect(running).toHaveLength(1);
  expect(running[0]?.cwd).toBe(path.join(ROOT, 'services', ONE_PROCESS));
  expect(running[0]?.args).toBe(`${process.execPath} ${SERVICE_NODE_FLAGS.join(' ')} dist/main.js`);
  // No tool processes (pnpm, tsx, esbuild) anywhere below the supervisor.
  expect(processTreeOf(supervisor.pid as number).filter((p) => /pnpm|tsx|esbuild/.test(p.args))).toEqual([]);
  // Each service logs under its own name, all through the one child's prefix.
  await pollUntil(
    async () => (lines.some((l) => l.includes('every service started in this process')) ? true : undefined),
    30_000,
    100,
  );
  const services = new Set(
    lines
      .filter((l) => /^one-process\s+\| \{/.test(l))
      .map((l) => (JSON.parse(l.replace(/^one-process\s+\| /, '')) as { service: string }).service),
  );
  for (const s of ['gateway', 'scrape-worker', 'crawl-worker', 'extract-worker', 'monitor-scheduler']) {
    expect(services).toContain(s);
  }
});

it('serves a scrape, a batch, a crawl and a monitor', async () => {
  const scrape = await request(url)
    .post('/v1/scrape')
    .set(account.auth)
    .send({ url: `${site.url}/article/0` });
  expect(scrape.status).toBe(200);
  expect(scrape.body.data.markdown.length).toBeGreaterThan(50);

  const urls = [1, 2, 3].map((n) => `${site.url}/article/${n}`);
  const batch = await request(url).post('/v1/batch/scrape').set(account.auth).send({ urls });
  expect(batch.status).toBe(202);
  const done = await pollUntil(async () => {
    const res = await request(url).get(`/v1/batch/scrape/${batch.body.id}`).set(account.auth);
    return res.body.status === 'done' ? res.body : undefined;
  }, 60_000);
  expect(done).toMatchObject({ completed: 3, failed: 0 });

  const crawlId = await startCrawl(url, account.auth, { url: `${site.url}/tree`, maxDepth: 1 });
  const crawl = await waitForCrawl(url, crawlId, account.auth);
  expect(crawl.status).toBe('done');
  expect(crawl.completed).toBeGreaterThan(1);

  const monitor = await request(url)
    .post('/v1/monitor')
    .set(account.auth)
    .send({ url: `${site.url}/article/4` });
  expect(monitor.status).toBe(201);
  const id = monitor.body.data.id as string;
  monitors.push(id);
  // The baseline check runs at creation (daily monitor): the monitor-check worker ran it.
  const checked = await pollUntil(async () => {
    const res = await request(url).get(`/v1/monitor/${id}`).set(account.auth);
    return res.body.data?.lastCheckAt ? res.body.data : undefined;
  }, 30_000);
  expect(checked.checks[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
}, 120_000);

it('restarts the service process when it dies', async () => {
  const before = children()[0];
  expect(before).toBeDefined();
  process.kill(before?.pid as number, 'SIGKILL');
  const after = await pollUntil(async () => {
    const now = children();
    return now.length === 1 && now[0]?.pid !== before?.pid ? now[0] : undefined;
  }, 30_000);
  expect(after?.args).toContain('dist/main.js');
  expect(
    lines.some((l) => /^one-process\s*\| exited \(code null, signal SIGKILL\); restarting/.test(l)),
  ).toBe(true);
  await healthy();
});

it('stops on SIGTERM: the service closes cleanly and the supervisor exits 0', async () => {
  const pid = children()[0]?.pid as number;
  const exited = new Promise<number | null>((resolve) => supervisor.once('exit', (code) => resolve(code)));
  supervisor.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(() => process.kill(pid, 0)).toThrow();
  // Its ShutdownManager ran every close step (no deadline exit).
  expect(lines.some((l) => l.includes('"reason":"SIGTERM"'))).toBe(true);
  expect(lines.some((l) => /shutdown deadline|exceeded/i.test(l))).toBe(false);
}, 40_000);
