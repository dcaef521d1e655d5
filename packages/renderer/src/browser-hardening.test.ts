/**
 * The browser engine against a hostile local site, with the real Chromium: no channel reaches a
 * forbidden address (UDP and TCP sinks must see nothing), byte caps stop huge/endless/bomb bodies
 * while they load, and the memory ceiling kills a renderer that allocates without bound while the
 * engine keeps serving. Prints the figures (time to answer, peak renderer RSS, Chromium's RSS).
 */
import { randomUUID } from 'node:crypto';
import { ServiceError, TargetTooLargeError } from '@wcs/errors';
import { isForbiddenAddress } from '@wcs/net';
import { BrowserEngine, type BrowserEngineOptions } from './browser-engine';
import { createRenderer } from './renderer';
import { type HostileSite, startHostileSite } from './test-support/hostile-site';
import { testContext, testOptions } from './test-support/options';
import { type Sinks, startSinks } from './test-support/sinks';

const MARKER = `--wcs-test-run=${randomUUID()}`;
const MB = 2 ** 20;
/**
 * The render budget of each hostile page: far past what a guard takes (seconds), so an answer at
 * the budget (TIMEOUT, or its abort) means no guard fired. A loaded machine once took the guards of
 * a brotli bomb and a DOM allocation past 30 s.
 */
const BUDGET_MS = 60_000;
jest.setTimeout(180_000);
/**
 * Chromium's memory after the hostile renders: all its processes' PSS summed (RSS with shared pages
 * counted once; summed VmRSS counts the shared binary in every process, ~2.5× more). Measured at
 * rest with two pooled slots: ~410 MB PSS, ~1 GB summed RSS.
 */
const TOTAL_PSS_BOUND_MB = 768;
const TOTAL_SUMMED_RSS_BOUND_MB = 2_048;

/** The fixture on 127.0.0.1 is allowed; every other private address (127.0.0.2, 10/8, …) is refused. */
const fixtureOnly = (ip: string) => ip !== '127.0.0.1' && isForbiddenAddress(ip);

const engineOptions = (over: Partial<BrowserEngineOptions> = {}): BrowserEngineOptions => {
  const o = testOptions();
  return {
    executablePath: '/usr/bin/chromium',
    maxPages: 2,
    userAgent: o.userAgent,
    allowPrivateTargets: false,
    maxBodyBytes: 10 * MB,
    maxRedirects: 5,
    args: [MARKER],
    isForbidden: fixtureOnly,
    ...over,
  };
};

interface Figure {
  case: string;
  outcome: string;
  /** Which guard answered: response cap, page cap, rendered size, memory ceiling, … */
  guard?: string;
  ms: number;
  peakRendererMb: number;
}
const figures: Figure[] = [];

let sinks: Sinks;
let site: HostileSite;
let engine: BrowserEngine;

beforeAll(async () => {
  sinks = await startSinks(['127.0.0.1', '127.0.0.2'], '127.0.0.2');
  site = await startHostileSite({ udp: sinks.udp, tcp: sinks.tcp });
  engine = new BrowserEngine(engineOptions());
});
afterAll(async () => {
  await engine.close();
  await site.close();
  await sinks.close();
  console.log(
    `browser hardening figures (maxBodyBytes 10 MiB, page cap 40 MiB, renderer ceiling 1024 MB)\n${figures
      .map(
        (f) =>
          `${f.case.padEnd(28)} ${f.outcome.padEnd(24)} ${(f.guard ?? '').padEnd(16)} ${String(f.ms).padStart(6)} ms  peak renderer ${f.peakRendererMb} MB`,
      )
      .join('\n')}`,
  );
});

/** Renders `path` and returns the error code (or 'ok') with the figures recorded. */
async function attempt(path: string, on = engine): Promise<{ code: string; ms: number; err?: unknown }> {
  on.resetMemoryPeak();
  const started = Date.now();
  let code = 'ok';
  let err: unknown;
  try {
    await on.render({ url: `${site.url}/${path}` }, testContext(BUDGET_MS));
  } catch (e) {
    err = e;
    code = e instanceof ServiceError ? e.code : String(e);
  }
  const details = (err instanceof ServiceError ? err.details : undefined) ?? {};
  const guard =
    typeof details.reason === 'string'
      ? details.reason
      : 'maxPageBytes' in details
        ? 'page-cap'
        : 'maxBodyBytes' in details
          ? err instanceof Error && /while loading/.test(err.message)
            ? 'response-cap'
            : 'rendered-size'
          : undefined;
  const ms = Date.now() - started;
  const peak = Math.round((await on.memory()).peakRendererBytes / MB);
  figures.push({ case: path, outcome: code, ...(guard ? { guard } : {}), ms, peakRendererMb: peak });
  return { code, ms, err };
}

describe('non-HTTP channels', () => {
  it('no UDP datagram or TCP connection reaches a forbidden address, whatever the page tries', async () => {
    const reported = site.nextChannelsReport();
    const rendered = engine.render({ url: `${site.url}/channels` }, testContext(BUDGET_MS));
    const report = await reported;
    await rendered;
    console.log(`channel page report: ${JSON.stringify(report)}`);
    expect(sinks.seen).toEqual([]);
    // The page really tried: every channel answered with a refusal, none opened.
    expect(Object.keys(report)).toEqual(
      expect.arrayContaining(['rtc', 'websocket', 'eventsource', 'beacon', 'fetch', 'iframe', 'worker']),
    );
    expect(report.websocket).not.toBe('onopen');
    expect(report.eventsource).not.toBe('onopen');
    expect(report.webtransport0).not.toBe('open');
  });

  it('the Chromium flags alone (no init script) keep WebRTC from sending UDP', async () => {
    const bare = new BrowserEngine(engineOptions({ skipLockdownScript: true, maxPages: 1 }));
    try {
      const before = sinks.seen.length;
      const reported = site.nextChannelsReport();
      const rendered = bare.render({ url: `${site.url}/channels?udp-only` }, testContext(BUDGET_MS));
      const report = await reported;
      await rendered;
      console.log(`channel page report without the init script: ${JSON.stringify(report)}`);
      expect(report.rtc).toMatch(/^gathered/); // the page really ran ICE with our stun/turn servers
      expect(sinks.seen.slice(before)).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  it('keeps WebRTC and WebTransport closed when private targets are allowed', async () => {
    const open = new BrowserEngine(engineOptions({ allowPrivateTargets: true, isForbidden: undefined }));
    try {
      const before = sinks.seen.length;
      const reported = site.nextChannelsReport();
      const rendered = open.render({ url: `${site.url}/channels?udp-only` }, testContext(BUDGET_MS));
      const report = await reported;
      await rendered;
      // TCP to 127.0.0.2 is allowed here; UDP must still be silent.
      expect(sinks.seen.slice(before).filter((s) => s.startsWith('udp'))).toEqual([]);
      expect(report.webtransport0).not.toBe('open');
    } finally {
      await open.close();
    }
  });
});

describe('byte caps while loading', () => {
  it.each([
    ['big', 'a 50 MB page'],
    ['endless', 'an endless stream'],
    ['gzip-bomb', 'a gzip bomb (200 MB decoded)'],
    ['brotli-bomb', 'a brotli bomb (200 MB decoded)'],
    ['app-shell-iframe', 'an app shell iframing an endless stream'],
    ['app-shell-iframe?src=http%3A%2F%2Flocalhost%3APORT%2Fendless', 'the same, cross-site iframe'],
    ['app-shell-fetch', 'an app shell fetching an endless stream'],
    ['app-shell-worker-fetch', 'a worker fetching an endless stream'],
    ['many-scripts?n=6&mb=8', 'six 8 MB scripts (page cap)'],
  ])('%s (%s) → TARGET_TOO_LARGE within the budget', async (path) => {
    const { code } = await attempt(path.replace('PORT', String(site.port)));
    // A guard answered (the end of the render budget would be TIMEOUT). How soon depends on the
    // machine (1.5-4.5 s one day, 4-21 s on a slow loaded one): the table this file prints and
    // docs/reliability/browser.md, not an assertion.
    expect(code).toBe('TARGET_TOO_LARGE');
  });

  it('the auto engine answers TARGET_TOO_LARGE too, not the fetched shell', async () => {
    const renderer = createRenderer(
      testOptions({
        allowPrivateTargets: true,
        fetchTimeoutMs: BUDGET_MS,
        browser: { enabled: true, executablePath: '/usr/bin/chromium', maxPages: 1, args: [MARKER] },
      }),
    );
    try {
      const started = Date.now();
      await expect(renderer.render({ url: `${site.url}/app-shell-iframe` })).rejects.toBeInstanceOf(
        TargetTooLargeError,
      );
      figures.push({
        case: 'auto: app-shell-iframe',
        outcome: 'TARGET_TOO_LARGE',
        ms: Date.now() - started,
        peakRendererMb: 0,
      });
    } finally {
      await renderer.close();
    }
  });
});

describe('binary served as HTML', () => {
  it.each([['binary-as-html'], ['binary-bytes-as-html']])('%s → UNSUPPORTED_CONTENT_TYPE', async (path) => {
    const { code } = await attempt(path);
    expect(code).toBe('UNSUPPORTED_CONTENT_TYPE');
    const next = await engine.render({ url: `${site.url}/ok` }, testContext(BUDGET_MS));
    expect(next.body).toContain('Still serving');
  });

  it('a 2 MB binary served as HTML is refused from its first bytes, not after Chromium lays it out', async () => {
    const { code } = await attempt('big-binary-as-html');
    // Laid out as text first, this ran into the render budget (~30 s: TIMEOUT); sniffed while
    // streaming, it is refused from its head (browser-head-sniffer.test.ts proves the head arrives
    // before the load event; the time is in the figures this file prints).
    expect(code).toBe('UNSUPPORTED_CONTENT_TYPE');
  });
});

describe('memory ceiling per renderer', () => {
  it.each([['alloc-js'], ['alloc-buffers'], ['alloc-dom']])(
    '%s → TARGET_TOO_LARGE, and the next render on the same engine succeeds',
    async (path) => {
      const { code } = await attempt(path);
      expect(code).toBe('TARGET_TOO_LARGE'); // the ceiling, not the budget (TIMEOUT)
      const next = await engine.render({ url: `${site.url}/ok` }, testContext(BUDGET_MS));
      expect(next.body).toContain('Still serving');
    },
  );

  it('other renders keep working while one renderer is killed', async () => {
    const [hostile, fine] = await Promise.all([
      attempt('alloc-buffers'),
      engine.render({ url: `${site.url}/ok` }, testContext(BUDGET_MS)),
    ]);
    expect(hostile.code).toBe('TARGET_TOO_LARGE');
    expect(fine.body).toContain('Still serving');
  });

  it(`Chromium's total memory (PSS) is back under ${TOTAL_PSS_BOUND_MB} MB after the hostile renders`, async () => {
    const deadline = Date.now() + 10_000;
    let total = Number.POSITIVE_INFINITY;
    let processes: Awaited<ReturnType<BrowserEngine['memory']>>['processes'] = [];
    while (Date.now() < deadline) {
      ({ processes } = await engine.memory());
      total = processes.reduce((n, p) => n + (p.pssBytes ?? p.rssBytes), 0) / MB;
      if (total < TOTAL_PSS_BOUND_MB) break;
      await new Promise((r) => setTimeout(r, 250)); // polling with a deadline, not synchronisation
    }
    const rss = processes.reduce((n, p) => n + p.rssBytes, 0) / MB;
    console.log(
      `chromium after hostile renders: ${Math.round(total)} MB PSS (${Math.round(rss)} MB summed RSS) in ${processes.length} processes (${processes
        .map(
          (p) =>
            `${p.type.replace(/.*mojom\./, '')} ${Math.round(p.rssBytes / MB)}/${Math.round((p.pssBytes ?? 0) / MB)}`,
        )
        .join(', ')} RSS/PSS MB); watchdog kills: ${(await engine.memory()).kills}`,
    );
    expect(processes.length).toBeGreaterThan(0);
    expect(total).toBeLessThan(TOTAL_PSS_BOUND_MB);
    // The looser figure operators see in `ps`: every process's RSS summed, shared pages repeated.
    expect(rss).toBeLessThan(TOTAL_SUMMED_RSS_BOUND_MB);
  });
});
