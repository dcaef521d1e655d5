/**
 * Both engines through local upstream proxies that record what passes through them (an HTTP
 * proxy with Basic auth, a SOCKS5 proxy with username/password): content arrives through them,
 * the renderer rotates them per request, `proxy: 'none'` goes direct, the address policy refuses a
 * private target before a proxy hears of it, and a wrong password is a clear error that never
 * reaches the message, the error's details or the logs.
 */

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { TargetForbiddenError, TargetUnreachableError, TlsError } from '@wcs/errors';
import { isForbiddenAddress } from '@wcs/net';
import {
  type FixtureSite,
  type ForwardProxy,
  fixtureArticle,
  type ListeningServer,
  listenLocal,
  startFixtureSite,
  startForwardProxy,
  startSocks5Proxy,
} from '@wcs/testing';
import { BrowserEngine } from './browser-engine';
import { MOBILE_USER_AGENT } from './emulation';
import { FetchEngine } from './fetch-engine';
import { createRenderer } from './renderer';
import { testContext, testOptions } from './test-support/options';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './test-support/self-signed';
import type { RendererLogger } from './types';

const MARKER = `--wcs-test-run=${randomUUID()}`;
const AUTH = { username: 'proxy-user', password: 'Pr0xy-Secret-77' };
const WRONG = 'Wr0ng-Secret-99';
/** The fixtures and proxies on 127.0.0.1 are allowed; every other private address is refused. */
const fixtureOnly = (ip: string) => ip !== '127.0.0.1' && isForbiddenAddress(ip);

let site: FixtureSite;
let other: FixtureSite;
let echo: ListeningServer;
let httpProxy: ForwardProxy;
let socksProxy: ForwardProxy;

beforeAll(async () => {
  site = await startFixtureSite({ pages: 5 });
  other = await startFixtureSite({ pages: 5 });
  echo = await listenLocal(
    http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers));
    }),
  );
  httpProxy = await startForwardProxy({ auth: AUTH });
  socksProxy = await startSocks5Proxy({ auth: AUTH });
});
afterAll(async () => {
  for (const s of [site, other, echo, httpProxy, socksProxy]) await s.close();
});
beforeEach(() => {
  httpProxy.records.length = 0;
  socksProxy.records.length = 0;
});

/** Everything a logger is given, as text. */
function spyLogger(): RendererLogger & { text(): string } {
  const lines: string[] = [];
  const log = (o: object, m?: string) => lines.push(`${m ?? ''} ${JSON.stringify(o)}`);
  return { debug: log, warn: log, text: () => lines.join('\n') };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
const targets = (p: ForwardProxy) => p.records.map((r) => r.target);

describe('fetch engine through upstream proxies', () => {
  it('goes through an HTTP proxy with Basic auth and through SOCKS5 with username/password', async () => {
    for (const proxy of [httpProxy, socksProxy]) {
      const renderer = createRenderer(testOptions({ proxies: [proxy.proxyUrl] }));
      try {
        const res = await renderer.render({ url: `${site.url}/article/1`, engine: 'fetch' });
        expect(res.statusCode).toBe(200);
        expect(res.body).toContain(fixtureArticle(1).paragraphs[1]);
        expect(proxy.records).toEqual([
          expect.objectContaining({
            target: `127.0.0.1:${site.port}`,
            authPresented: true,
            authorized: true,
          }),
        ]);
      } finally {
        await renderer.close();
      }
    }
  });

  it('rotates the configured proxies per request; proxy "none" goes direct', async () => {
    const renderer = createRenderer(testOptions({ proxies: [httpProxy.proxyUrl, socksProxy.proxyUrl] }));
    try {
      // Two origins, each rendered twice: alternating proxies open one tunnel per origin on each.
      for (const url of [site.url, site.url, other.url, other.url]) {
        expect((await renderer.render({ url: `${url}/article/2`, engine: 'fetch' })).statusCode).toBe(200);
      }
      const both = [`127.0.0.1:${site.port}`, `127.0.0.1:${other.port}`];
      expect(targets(httpProxy)).toEqual(both);
      expect(targets(socksProxy)).toEqual(both);

      const before = site.hits('/article/3');
      const direct = await renderer.render({ url: `${site.url}/article/3`, engine: 'fetch', proxy: 'none' });
      expect(direct.body).toContain(fixtureArticle(3).title);
      expect(site.hits('/article/3')).toBe(before + 1);
      expect(httpProxy.records.length + socksProxy.records.length).toBe(4);
    } finally {
      await renderer.close();
    }
  });

  it('runs TLS to an https target inside the tunnel (the proxy sees only host:port)', async () => {
    const server = https.createServer({ key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT }, (_req, res) =>
      res.end('tls'),
    );
    const tlsSite = await listenLocal(server as unknown as http.Server);
    const renderer = createRenderer(testOptions({ proxies: [httpProxy.proxyUrl] }));
    try {
      const url = `https://127.0.0.1:${tlsSite.port}/`;
      // The self-signed certificate is refused by us, end to end, after the tunnel opened.
      expect(await failure(renderer.render({ url, engine: 'fetch' }))).toBeInstanceOf(TlsError);
      expect(httpProxy.records).toEqual([
        expect.objectContaining({ kind: 'connect', target: `127.0.0.1:${tlsSite.port}` }),
      ]);
    } finally {
      await renderer.close();
      await tlsSite.close();
    }
  });

  it('sends the mobile user agent and the location’s Accept-Language; caller headers still win', async () => {
    const engine = new FetchEngine({ ...testOptions(), isForbidden: fixtureOnly });
    try {
      const seen = async (over: object) =>
        JSON.parse((await engine.render({ url: `${echo.url}/`, ...over }, testContext())).body) as Record<
          string,
          string
        >;
      expect(await seen({ mobile: true, location: { country: 'DE' } })).toMatchObject({
        'user-agent': MOBILE_USER_AGENT,
        'accept-language': 'de-DE,de;q=0.9',
      });
      expect(await seen({})).toMatchObject({
        'user-agent': 'wcs-renderer-test/1.0',
        'accept-language': 'en-US,en;q=0.9',
      });
      expect(
        await seen({
          mobile: true,
          location: { country: 'FR' },
          request: { headers: { 'User-Agent': 'mine/1', 'Accept-Language': 'it' } },
        }),
      ).toMatchObject({ 'user-agent': 'mine/1', 'accept-language': 'it' });
    } finally {
      await engine.close();
    }
  });

  it('refuses a private target before the proxy hears of it', async () => {
    const engine = new FetchEngine({
      ...testOptions({ allowPrivateTargets: false }),
      isForbidden: fixtureOnly,
    });
    try {
      for (const proxy of [httpProxy, socksProxy]) {
        for (const url of ['http://10.0.0.1/', `http://127.0.0.2:${site.port}/`]) {
          const err = await failure(
            engine.render({ url, request: { proxy: proxy.proxyUrl } }, testContext()),
          );
          expect(err).toBeInstanceOf(TargetForbiddenError);
        }
      }
      expect(httpProxy.records).toEqual([]);
      expect(socksProxy.records).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it('a wrong proxy password is a clear error; the password reaches neither the error nor the logs', async () => {
    for (const proxy of [httpProxy, socksProxy]) {
      const logger = spyLogger();
      const wrong = proxy.proxyUrl.replace(AUTH.password, WRONG);
      const renderer = createRenderer(testOptions({ proxies: [wrong], logger }));
      try {
        const err = await failure(renderer.render({ url: `${site.url}/article/1`, engine: 'fetch' }));
        expect(err).toBeInstanceOf(TargetUnreachableError);
        expect(err?.message).toMatch(
          new RegExp(`proxy 127\\.0\\.0\\.1:${proxy.port} refused the credentials`, 'i'),
        );
        for (const text of [err?.message, JSON.stringify(err), String(err?.stack), logger.text()])
          expect(text).not.toContain(WRONG);
        // The engine did log the proxy it used, redacted.
        expect(logger.text()).toContain(`***:***@127.0.0.1:${proxy.port}`);
        expect(proxy.records.at(-1)).toMatchObject({ authPresented: true, authorized: false });
      } finally {
        await renderer.close();
      }
    }
  });
});

describe('browser engine through upstream proxies', () => {
  const engineFor = (logger?: RendererLogger) =>
    new BrowserEngine({
      executablePath: '/usr/bin/chromium',
      maxPages: 1, // one slot: successive renders reuse it
      userAgent: 'wcs-renderer-test/1.0',
      allowPrivateTargets: false,
      maxBodyBytes: 10 * 2 ** 20,
      maxRedirects: 5,
      args: [MARKER],
      isForbidden: fixtureOnly,
      ...(logger ? { logger } : {}),
    });
  let engine: BrowserEngine;
  beforeAll(() => {
    engine = engineFor();
  });
  afterAll(async () => {
    await engine.close();
  });
  const render = (url: string, proxy?: string) =>
    engine.render({ url, engine: 'browser', ...(proxy ? { request: { proxy } } : {}) }, testContext(15_000));

  it('goes through the HTTP proxy, then direct on the same slot when the next render has none', async () => {
    const res = await render(`${site.url}/article/1`, httpProxy.proxyUrl);
    expect(res.body).toContain(fixtureArticle(1).paragraphs[1]);
    expect(targets(httpProxy)).toContain(`127.0.0.1:${site.port}`);
    expect(httpProxy.records.every((r) => r.authorized)).toBe(true);
    expect(engine.poolSize).toEqual({ idle: expect.any(Number), busy: expect.any(Number) });

    const seen = httpProxy.records.length;
    const before = site.hits('/article/2');
    const direct = await render(`${site.url}/article/2`);
    expect(direct.body).toContain(fixtureArticle(2).paragraphs[1]);
    expect(site.hits('/article/2')).toBe(before + 1);
    expect(httpProxy.records.length).toBe(seen);
  });

  it('goes through SOCKS5 with username/password', async () => {
    const res = await render(`${other.url}/article/3`, socksProxy.proxyUrl);
    expect(res.body).toContain(fixtureArticle(3).paragraphs[1]);
    expect(targets(socksProxy)).toContain(`127.0.0.1:${other.port}`);
    expect(targets(httpProxy)).toEqual([]);
  });

  it('chains an https tunnel (CONNECT from Chromium) to the upstream after the address check', async () => {
    const server = https.createServer({ key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT }, (_req, res) =>
      res.end('tls'),
    );
    const tlsSite = await listenLocal(server as unknown as http.Server);
    try {
      // Chromium refuses the self-signed certificate itself: the tunnel through SOCKS5 was open.
      await failure(render(`https://127.0.0.1:${tlsSite.port}/`, socksProxy.proxyUrl));
      expect(targets(socksProxy)).toContain(`127.0.0.1:${tlsSite.port}`);
    } finally {
      await tlsSite.close();
    }
  });

  it('refuses a private target with a proxy configured; the proxy sees nothing', async () => {
    const err = await failure(render(`http://127.0.0.2:${site.port}/`, httpProxy.proxyUrl));
    expect(err).toBeInstanceOf(TargetForbiddenError);
    expect(httpProxy.records).toEqual([]);
  });

  it('a wrong password fails the render without the password in the error or the logs', async () => {
    const logger = spyLogger();
    const own = engineFor(logger);
    try {
      const wrong = httpProxy.proxyUrl.replace(AUTH.password, WRONG);
      const err = await failure(
        own.render({ url: `${site.url}/article/1`, request: { proxy: wrong } }, testContext(15_000)),
      );
      expect(err).toBeInstanceOf(TargetUnreachableError);
      expect(err?.message).toMatch(/PROXY_AUTH_FAILED/);
      for (const text of [err?.message, JSON.stringify(err), String(err?.stack), logger.text()])
        expect(text).not.toContain(WRONG);
      expect(httpProxy.records.at(-1)).toMatchObject({ authPresented: true, authorized: false });
    } finally {
      await own.close();
    }
  });
});
