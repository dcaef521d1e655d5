/**
 * Chromium on demand: no browser until a render needs one, closed (the whole process tree) after
 * `idleCloseMs` without renders, launched afresh by the next render, held open by a render in
 * flight, never closed with idleCloseMs 0, and never handing out a slot of a browser being closed.
 */
import { createServer } from 'node:http';
import {
  chromiumPids,
  type FixtureSite,
  fixtureArticle,
  JS_ONLY_TEXT,
  type ListeningServer,
  listenLocal,
  processAlive,
  startFixtureSite,
} from '@wcs/testing';
import { BrowserEngine } from './browser-engine';
import { createRenderer } from './renderer';
import { testContext, testOptions } from './test-support/options';
import type { Renderer, RendererLogger } from './types';

const IDLE_MS = 300;

const alive = processAlive;

async function pollUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Every process of the browser seen at `pids` has exited, and no other Chromium process of ours
 * runs (one spawned after the snapshot; a zombie not yet reaped does not count). Polled.
 */
const allExited = (pids: number[], timeoutMs = 30_000) =>
  pollUntil(
    () => pids.every((p) => !alive(p)) && chromiumPids().filter(alive).length === 0,
    timeoutMs,
    `chromium ${pids.join(',')} still running`,
  );

/** Counts the pool's debug lines (launches and idle closes). */
function countingLogger(): RendererLogger & { count(msg: string): number } {
  const seen: string[] = [];
  return {
    debug: (_o, m) => void (m && seen.push(m)),
    warn: () => undefined,
    count: (msg) => seen.filter((m) => m === msg).length,
  };
}

const rendererWith = (idleCloseMs: number, logger?: RendererLogger): Renderer =>
  createRenderer(
    testOptions({
      fetchTimeoutMs: 15_000,
      browser: { enabled: true, executablePath: '/usr/bin/chromium', maxPages: 2, idleCloseMs },
      ...(logger ? { logger } : {}),
    }),
  );

let site: FixtureSite;
let slow: ListeningServer;
/** Called by the slow page's server right before it answers (while the render is in flight). */
let onSlowAnswer: () => void = () => undefined;

beforeAll(async () => {
  site = await startFixtureSite({ pages: 3 });
  const timers = new Set<NodeJS.Timeout>();
  slow = await listenLocal(
    createServer((req, res) => {
      const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 0);
      const t = setTimeout(() => {
        timers.delete(t);
        onSlowAnswer();
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!DOCTYPE html><html><body><p>Slow but here.</p></body></html>');
      }, ms);
      timers.add(t);
    }),
    timers,
  );
});
afterAll(async () => {
  await slow?.close();
  await site?.close();
});

afterEach(() => {
  onSlowAnswer = () => undefined;
});

describe('chromium on demand', () => {
  it('launches no browser until a render needs one, and closes it after idleCloseMs', async () => {
    expect(chromiumPids()).toEqual([]);
    const engine = new BrowserEngine({ ...testOptions(), ...testOptions().browser, idleCloseMs: IDLE_MS });
    const renderer = rendererWith(IDLE_MS);
    try {
      // Created, and a fetch-only render done: still no Chromium.
      expect((await renderer.render({ url: `${site.url}/article/1` })).engine).toBe('fetch');
      expect(chromiumPids()).toEqual([]);

      const res = await renderer.render({ url: `${site.url}/js-only` });
      expect(res.engine).toBe('browser');
      expect(res.body).toContain(JS_ONLY_TEXT);
      const pids = chromiumPids();
      expect(pids.length).toBeGreaterThan(0);

      await allExited(pids);
    } finally {
      await renderer.close();
      await engine.close();
    }
  });

  it('relaunches for the next render, with a fresh CDP session for the memory figures', async () => {
    const logger = countingLogger();
    const engine = new BrowserEngine({
      ...testOptions(),
      ...testOptions().browser,
      idleCloseMs: IDLE_MS,
      logger,
    });
    try {
      await engine.render({ url: `${site.url}/article/0` }, testContext(10_000));
      const first = (await engine.memory()).processes.map((p) => p.pid);
      expect(first.length).toBeGreaterThan(0);
      await allExited(first);
      await pollUntil(() => logger.count('browser closed after idle') === 1, 30_000, 'idle close logged');
      expect((await engine.memory()).processes).toEqual([]); // no browser, no session

      const again = await engine.render({ url: `${site.url}/article/2` }, testContext(10_000));
      expect(again.body).toContain(fixtureArticle(2).title);
      expect(logger.count('browser launched')).toBe(2);
      const second = (await engine.memory()).processes.map((p) => p.pid);
      expect(second.length).toBeGreaterThan(0);
      expect(second.filter((p) => first.includes(p))).toEqual([]);
      await allExited(second);
    } finally {
      await engine.close();
    }
  });

  it('keeps the browser while a render runs past idleCloseMs, and closes it after', async () => {
    const renderer = rendererWith(IDLE_MS);
    try {
      await renderer.render({ url: `${site.url}/article/0`, engine: 'browser' });
      const pids = chromiumPids();
      // The slow page answers after 4 × idleCloseMs: the browser must still be running then.
      let aliveAtAnswer: boolean[] = [];
      onSlowAnswer = () => {
        aliveAtAnswer = pids.map(alive);
      };
      const res = await renderer.render({ url: `${slow.url}/?ms=${4 * IDLE_MS}`, engine: 'browser' });
      const ended = Date.now();
      expect(res.body).toContain('Slow but here.');
      expect(aliveAtAnswer).toEqual(pids.map(() => true));
      await allExited(pids);
      // The close counts from the end of the render (release included), not from its start.
      expect(Date.now() - ended).toBeGreaterThanOrEqual(IDLE_MS - 50);
    } finally {
      await renderer.close();
    }
  });

  it('with idleCloseMs 0 keeps the browser until the renderer closes', async () => {
    const renderer = rendererWith(0);
    try {
      await renderer.render({ url: `${site.url}/article/0`, engine: 'browser' });
      const pids = chromiumPids();
      expect(pids.length).toBeGreaterThan(0);
      // Asserting that nothing happens needs a bounded wait: 3 × the interval of the other tests.
      await new Promise((r) => setTimeout(r, 3 * IDLE_MS));
      expect(pids.every(alive)).toBe(true);
      await renderer.close();
      await allExited(pids);
    } finally {
      await renderer.close();
    }
  });

  it('an acquire during the idle close gets a fresh browser; close() during one waits for it', async () => {
    const logger = countingLogger();
    const engine = new BrowserEngine({
      ...testOptions(),
      ...testOptions().browser,
      idleCloseMs: 150,
      logger,
    });
    /**
     * The released slot goes idle, then the idle close takes it (and the browser) away. A loaded
     * machine's poll can miss the 150 ms the slot sits idle; an idle close that has finished since
     * (`closesBefore` of them before) says it went idle too.
     */
    const closeStarted = async (closesBefore: number) => {
      const closed = () => logger.count('browser closed after idle') > closesBefore;
      await pollUntil(() => engine.poolSize.idle === 1 || closed(), 30_000, 'slot idle');
      await pollUntil(() => engine.poolSize.idle === 0, 30_000, 'idle close started');
    };
    try {
      await engine.render({ url: `${site.url}/article/0` }, testContext(10_000));
      const first = (await engine.memory()).processes.map((p) => p.pid);
      await closeStarted(0);
      const res = await engine.render({ url: `${site.url}/article/1` }, testContext(10_000));
      expect(res.body).toContain(fixtureArticle(1).title);
      expect(logger.count('browser launched')).toBe(2);
      await pollUntil(() => !first.some(alive), 30_000, 'first browser exited');
      const second = (await engine.memory()).processes.map((p) => p.pid);
      expect(second.length).toBeGreaterThan(0);

      await closeStarted(1);
      await engine.close();
      expect(logger.count('browser closed after idle')).toBe(2); // close() waited for it
      await allExited(second);
    } finally {
      await engine.close();
    }
  });

  it('never hands out a slot of a browser being closed: renders racing the idle close all succeed', async () => {
    const logger = countingLogger();
    const renderer = rendererWith(1, logger);
    const seen = new Set<number>();
    try {
      for (let i = 0; i < 10; i++) {
        // Jitter, not synchronisation: a release (about:blank, storage reset) takes 100-300 ms
        // (quiet or slow machine), so the next acquire lands during the release, the 1 ms
        // countdown, the close, or after it.
        await new Promise((r) => setTimeout(r, (i * 83) % 700));
        const urls = i % 3 === 0 ? [0, 1] : [i % 3];
        const results = await Promise.all(
          urls.map((n) => renderer.render({ url: `${site.url}/article/${n}`, engine: 'browser' })),
        );
        for (const [k, r] of results.entries()) expect(r.body).toContain(fixtureArticle(urls[k] ?? 0).title);
        for (const pid of chromiumPids()) seen.add(pid);
      }
      // The race really ran: the browser was closed and relaunched along the way.
      expect(logger.count('browser closed after idle')).toBeGreaterThanOrEqual(2);
      expect(logger.count('browser launched')).toBeGreaterThanOrEqual(2);
    } finally {
      // close() during (or right after) an idle close waits for it: nothing may stay behind.
      await renderer.close();
    }
    await allExited([...seen]);
  });
});
