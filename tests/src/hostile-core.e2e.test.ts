/**
 * The fast core of `pnpm test:hostile` in the default run: the hostile cases that matter most ×
 * scrape (engine fetch) and browser scrape, through the real gateway and scrape worker, each
 * checked for the documented status/code, its time budget and "billed only for success" (the
 * same cells as tests/hostile/run-hostile.ts). Plus the private-connections page against a
 * browser whose address policy allows only the site: no TCP connection and no UDP packet may
 * reach the listeners.
 */
import { type HostileCase, type HostileSite, PRIVATE_PROBE_TEXT, startHostileSite } from '@wcs/testing';
import { BrowserEngine } from '../../packages/renderer/src/browser-engine';
import { type CellContext, type Endpoint, runCell } from '../hostile/hostile-cells';
import { balanceOf, createTestAccount, type Stack, startStack } from './harness';

/**
 * The fast cells (the rest, and the heavy ones — 100k links, browser deep nesting — run in
 * `pnpm test:hostile`). Out: ['many-links', 'browser'] answers TARGET_TOO_LARGE instead of 200 with a warning (red in the runner).
 */
const CORE: Array<[HostileCase, Endpoint]> = [
  ['binary-png', 'scrape'],
  ['gzip-bomb', 'scrape'],
  ['huge', 'scrape'],
  ['redirect-loop', 'scrape'],
  ['deep-nesting', 'scrape'],
  ['charset-latin1-as-utf8', 'scrape'],
  ['charset-unknown', 'scrape'],
  ['slow-headers', 'scrape'],
  ['binary-random', 'browser'],
  ['binary-png', 'browser'],
  ['gzip-bomb', 'browser'],
  ['huge', 'browser'],
  ['redirect-loop', 'browser'],
  ['charset-unknown', 'browser'],
  ['slow-headers', 'browser'],
  ['app-shell', 'browser'],
  ['private-connections', 'browser'],
];

let site: HostileSite;
let stack: Stack;
let ctx: CellContext;

beforeAll(async () => {
  site = await startHostileSite();
  stack = await startStack({ env: { BROWSER_MAX_PAGES: '1' } });
  ctx = {
    site,
    async newAccount() {
      const a = await createTestAccount({ plan: 'hobby', credits: 100 });
      return { baseUrl: stack.url, accountId: a.accountId, auth: a.auth };
    },
    balance: balanceOf,
  };
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

describe('hostile cells through the API', () => {
  it.each(CORE)(
    '%s × %s answers as documented, in budget, billed only for success',
    async (name, endpoint) => {
      const r = await runCell(ctx, name, endpoint);
      // notes name every difference (got vs expected, credits), so a failure says what broke.
      expect(r.notes).toEqual([]);
      expect(r.pass).toBe(true);
    },
  );
});

describe('private connections from a rendered page', () => {
  it('lets no WebRTC, WebSocket, EventSource, beacon, fetch, image or iframe reach a private listener', async () => {
    // The site (127.0.0.1) is allowed; the listeners' 127.0.0.2 is refused like any private address.
    const engine = new BrowserEngine({
      executablePath: '/usr/bin/chromium',
      maxPages: 1,
      userAgent: 'wcs-hostile-test/1.0',
      allowPrivateTargets: false,
      maxBodyBytes: 10 * 1024 * 1024,
      maxRedirects: 10,
      connectTimeoutMs: 2_000,
      isForbidden: (ip) => ip !== '127.0.0.1',
    });
    try {
      const l = site.privateListeners;
      const before = { tcp: l.tcpConnections(), udp: l.udpPackets() };
      const url = site.caseUrl('private-connections');
      const started = Date.now();
      const res = await engine.render(
        { url },
        { started, deadline: started + 20_000, signal: AbortSignal.timeout(20_000) },
      );
      expect(res.body).toContain(PRIVATE_PROBE_TEXT);
      // The page reports on /fired once every probe was tried and ICE gathering ended.
      expect(site.hits(`${new URL(url).pathname}/fired`)).toBe(1);
      expect({ tcp: l.tcpConnections() - before.tcp, udp: l.udpPackets() - before.udp }).toEqual({
        tcp: 0,
        udp: 0,
      });
    } finally {
      await engine.close();
    }
  });
});
