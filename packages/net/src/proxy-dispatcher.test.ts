/**
 * openUrl through local forward proxies that record what passes through them: HTTP CONNECT with
 * Basic auth and SOCKS5 with username/password; the address policy is applied to the target
 * before the proxy hears of it; failures are typed and never carry the proxy's password.
 */
import http from 'node:http';
import net from 'node:net';
import { TargetForbiddenError, TargetUnreachableError, TimeoutError } from '@wcs/errors';
import {
  type ForwardProxy,
  type ListeningServer,
  listenLocal,
  startForwardProxy,
  startSocks5Proxy,
} from '@wcs/testing';
import { type AddressPolicy, createGuardedAgent, isForbiddenAddress } from './address-policy';
import { openUrl, readBody } from './http-request';
import { ProxyDispatchers } from './proxy-dispatcher';

/** The fixtures and proxies on 127.0.0.1 are allowed; every other private address stays refused. */
const onlyLoopback1: AddressPolicy = (ip) => ip !== '127.0.0.1' && isForbiddenAddress(ip);
const AUTH = { username: 'alice', password: 'hunter2-secret' };

let site: ListeningServer;
let httpProxy: ForwardProxy;
let socksProxy: ForwardProxy;
let socksH: ForwardProxy;
let silent: ListeningServer;
const siteHits: string[] = [];
const direct = createGuardedAgent(2_000, onlyLoopback1);
const proxies = new ProxyDispatchers({ connectTimeoutMs: 2_000, isForbidden: onlyLoopback1 });

beforeAll(async () => {
  site = await listenLocal(
    http.createServer((req, res) => {
      siteHits.push(`${req.method} ${req.url}`);
      if (req.url === '/redirect-private') {
        res.writeHead(302, { location: 'http://10.0.0.1/' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${req.url}`);
    }),
  );
  httpProxy = await startForwardProxy({ auth: AUTH });
  socksProxy = await startSocks5Proxy({ auth: AUTH });
  socksH = await startSocks5Proxy({ scheme: 'socks5h' });
  // Accepts connections and never answers: a stuck proxy.
  silent = await listenLocal(net.createServer(() => undefined) as unknown as http.Server);
});
afterAll(async () => {
  await proxies.close();
  await direct.close();
  for (const s of [site, httpProxy, socksProxy, socksH, silent]) await s.close();
});
beforeEach(() => {
  for (const p of [httpProxy, socksProxy, socksH]) p.records.length = 0;
});

const get = async (url: string, proxy: string, over: { timeoutMs?: number } = {}) => {
  const res = await openUrl(url, {
    dispatcher: direct,
    proxies,
    isForbidden: onlyLoopback1,
    request: { proxy },
    timeoutMs: over.timeoutMs ?? 5_000,
  });
  return { status: res.statusCode, body: (await readBody(res, { maxBytes: 10_000 })).toString() };
};

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

describe('openUrl through an upstream proxy', () => {
  it('tunnels through an HTTP proxy with Basic auth (CONNECT, also for http targets)', async () => {
    expect(await get(`${site.url}/a`, httpProxy.proxyUrl)).toEqual({ status: 200, body: 'hello /a' });
    expect(httpProxy.records).toEqual([
      {
        kind: 'connect',
        target: `127.0.0.1:${site.port}`,
        method: 'CONNECT',
        authPresented: true,
        authorized: true,
      },
    ]);
  });

  it('tunnels through SOCKS5 with username/password; socks5 sends the checked address, socks5h the name', async () => {
    expect(await get(`${site.url}/b`, socksProxy.proxyUrl)).toEqual({ status: 200, body: 'hello /b' });
    expect(socksProxy.records).toEqual([
      {
        kind: 'socks5',
        target: `127.0.0.1:${site.port}`,
        method: 'CONNECT',
        authPresented: true,
        authorized: true,
      },
    ]);
    const local = `http://localhost:${site.port}/c`;
    // localhost resolves to 127.0.0.1 (and maybe ::1, refused by the policy): socks5h only sees the name.
    const viaH = await failure(get(local, socksH.proxyUrl));
    if (viaH) expect(viaH).toBeInstanceOf(TargetForbiddenError);
    else expect(socksH.records.map((r) => r.target)).toEqual([`localhost:${site.port}`]);
  });

  it('refuses a private target before the proxy hears of it (also a redirect hop to one)', async () => {
    for (const proxy of [httpProxy, socksProxy]) {
      const err = await failure(get('http://10.1.2.3:8080/', proxy.proxyUrl));
      expect(err).toBeInstanceOf(TargetForbiddenError);
      const hop = await failure(get(`${site.url}/redirect-private`, proxy.proxyUrl));
      expect(hop).toBeInstanceOf(TargetForbiddenError);
      // Only the first hop (the allowed fixture, maybe on a pooled tunnel) went through the proxy.
      expect(siteHits.at(-1)).toBe('GET /redirect-private');
      for (const r of proxy.records) expect(r.target).toBe(`127.0.0.1:${site.port}`);
    }
  });

  it('a wrong password is a clear typed error without the password', async () => {
    const wrong = { ...AUTH, password: 'wrong-pass-42' };
    for (const [proxy, expected] of [
      [
        httpProxy,
        `Proxy 127.0.0.1:${httpProxy.port} refused the credentials (407 Proxy Authentication Required)`,
      ],
      [socksProxy, `SOCKS proxy 127.0.0.1:${socksProxy.port} refused the credentials`],
    ] as const) {
      const url = proxy.proxyUrl.replace(AUTH.password, wrong.password);
      const err = await failure(get(`${site.url}/d`, url));
      expect(err).toBeInstanceOf(TargetUnreachableError);
      expect(err?.message).toBe(expected);
      expect(JSON.stringify(err)).not.toMatch(/wrong-pass-42|hunter2/);
      expect(String(err?.stack)).not.toContain('wrong-pass-42');
      expect(proxy.records.at(-1)).toMatchObject({ authPresented: true, authorized: false });
    }
  });

  it('a refused or stuck proxy fails within the budget, naming only host:port', async () => {
    const refused = await failure(get(`${site.url}/e`, 'http://bob:pw-xyz@127.0.0.1:1'));
    expect(refused).toBeInstanceOf(TargetUnreachableError);
    expect(refused?.message).toBe('Could not connect to proxy 127.0.0.1:1 (ECONNREFUSED)');
    const stuck = await failure(
      get(`${site.url}/f`, `socks5://bob:pw-xyz@127.0.0.1:${silent.port}`, { timeoutMs: 800 }),
    );
    expect(stuck).toBeInstanceOf(TimeoutError);
    // The request's own budget ended the stuck handshake: the error names it.
    expect(stuck?.message).toBe('Request to 127.0.0.1 timed out after 800 ms');
    expect(JSON.stringify([refused, stuck])).not.toContain('pw-xyz');
  });

  it('a proxy that never answers CONNECT times out with the connect budget, as a TimeoutError', async () => {
    const slow = new ProxyDispatchers({ connectTimeoutMs: 300, isForbidden: onlyLoopback1 });
    try {
      const err = await failure(
        openUrl(`${site.url}/g`, {
          dispatcher: direct,
          proxies: slow,
          isForbidden: onlyLoopback1,
          request: { proxy: `http://127.0.0.1:${silent.port}` },
          timeoutMs: 5_000,
        }),
      );
      expect(err).toBeInstanceOf(TimeoutError);
      // The budget is what is left of the 300 ms when the tunnel starts (299 on a busy machine).
      expect(err?.message).toMatch(
        new RegExp(`^Proxy 127\\.0\\.0\\.1:${silent.port} did not open a tunnel within (2\\d\\d|300) ms$`),
      );
    } finally {
      await slow.close();
    }
  });
});
