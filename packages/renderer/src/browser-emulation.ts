/**
 * Per-render page options of the browser that are not plain request headers: the caller's cookies
 * (a `Cookie` header and the `cookies` record become real browser cookies of the target), and the
 * `mobile` and `location` emulation, applied through the slot's own CDP session. Playwright fixes
 * viewport, user agent and locale per context; a pooled slot serves many renders, so these are set
 * per page here and put back to the desktop defaults when the slot is released (`reset`).
 */
import { ValidationError } from '@wcs/errors';
import { CREDENTIAL_HEADERS, type RequestOptions } from '@wcs/net';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { DESKTOP_VIEWPORT, MOBILE_USER_AGENT, MOBILE_VIEWPORT, resolveLocation } from './emulation';
import type { RendererLogger, RenderLocation } from './types';

/**
 * Never sent: the browser's proxies are ours (the guarded proxy tells the slots apart by their
 * own Proxy-Authorization), so a caller's would only confuse them.
 */
const DROPPED_HEADERS = new Set(['proxy-authorization']);

export interface BrowserCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  secure: boolean;
}

/**
 * The headers to send as extra HTTP headers (without any `Cookie`, in whatever case) and the
 * cookies to add for the target: the Cookie header's pairs first, then the record (which wins on
 * a name clash). Host-only cookies of the target's host, path "/" so they survive a same-host
 * redirect; the browser drops them on a cross-host one, as the fetch engine does.
 */
export function splitCookies(
  target: string,
  headers: Record<string, string>,
  cookies: Record<string, string> | undefined,
): { headers: Record<string, string>; cookies: BrowserCookie[] } {
  const rest: Record<string, string> = {};
  const jar = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'cookie') {
      rest[name] = value;
      continue;
    }
    for (const part of value.split(';')) {
      const eq = part.indexOf('=');
      // A pair without a name cannot become a browser cookie: left out.
      const key = eq > 0 ? part.slice(0, eq).trim() : '';
      if (key) jar.set(key, part.slice(eq + 1).trim());
    }
  }
  for (const [name, value] of Object.entries(cookies ?? {})) if (name) jar.set(name, value);
  const url = new URL(target);
  const secure = url.protocol === 'https:';
  return {
    headers: rest,
    cookies: [...jar].map(([name, value]) => ({ name, value, domain: url.hostname, path: '/', secure })),
  };
}

/** Adds the cookies to the slot's context; one the browser refuses is the caller's mistake (400). */
export async function addCookies(context: BrowserContext, cookies: BrowserCookie[]): Promise<void> {
  if (cookies.length === 0) return;
  try {
    await context.addCookies(cookies);
  } catch (err) {
    // The browser's message would quote the cookie: only the names are safe to show.
    throw new ValidationError(
      `The browser refused the request's cookies (${cookies.map((c) => c.name).join(', ')})`,
      { cause: err },
    );
  }
}

export interface EmulationRequest {
  mobile?: boolean;
  location?: RenderLocation;
}

/** The device scale factor a render's screenshots are taken at. */
export function deviceScaleFactorOf(req: EmulationRequest): number {
  return req.mobile ? MOBILE_VIEWPORT.deviceScaleFactor : DESKTOP_VIEWPORT.deviceScaleFactor;
}

/** The parts of CDP's Fetch.requestPaused and HeaderEntry used here. */
interface PausedRequest {
  requestId: string;
  request: { url: string; headers: Record<string, string> };
  /** Set on a redirect hop: the request the redirect answered. */
  redirectedRequestId?: string;
}
interface HeaderEntry {
  name: string;
  value: string;
}

/**
 * The slot's own CDP session. Its overrides take precedence over Playwright's (set on another
 * session) while set; an empty user agent and empty locale/timezone hand them back. The device
 * metrics are set to the desktop values again rather than cleared: clearing would drop
 * Playwright's 1280×720 too (Chromium keeps one device emulation per page).
 *
 * The caller's headers go to the target's origin only — the origin of the URL asked for, whatever
 * a redirect of the document leads to — as the fetch engine sends them (@wcs/net hop-headers): the
 * document and every request of the page's frames to that origin get them, nothing else does.
 * Neither Playwright nor Chromium can scope them: a route's header overrides are re-applied to
 * every redirect hop, and extra HTTP headers go to every origin and survive a redirect. So while a
 * render has such headers this session intercepts the page's requests too (a second Fetch client
 * beside Playwright's route handler, which still checks every address), adding them to requests for
 * the target's origin and taking them off a redirect hop to any other. Requests of workers and
 * out-of-process iframes are other targets: they get none. With `headersScope: 'all'` the headers
 * but the credentials go everywhere as extra HTTP headers; Authorization stays scoped.
 */
export class PageEmulation {
  private applied = false;
  private scoped: { origin: string; headers: HeaderEntry[] } | undefined;

  private constructor(
    private readonly page: Page,
    /** Also used for screenshots and to stop a running script (Runtime.terminateExecution). */
    readonly session: CDPSession,
    private readonly userAgent: string,
    private readonly logger: RendererLogger | undefined,
  ) {
    session.on('Fetch.requestPaused', (e) => this.onPaused(e));
  }

  static async attach(page: Page, userAgent: string, logger?: RendererLogger): Promise<PageEmulation> {
    return new PageEmulation(page, await page.context().newCDPSession(page), userAgent, logger);
  }

  /**
   * Everything a render's request options set on the page before it loads: the cookies (a Cookie
   * header too: sent to the target's host alone, not to every host it loads), the other headers
   * (to the target's origin alone, see above), and the device and location.
   */
  async prepare(
    target: string,
    req: EmulationRequest & { headers?: Record<string, string>; request?: RequestOptions },
  ): Promise<void> {
    const { headers, cookies } = splitCookies(
      target,
      { ...req.headers, ...req.request?.headers },
      req.request?.cookies,
    );
    await addCookies(this.page.context(), cookies);
    const everywhere = req.request?.headersScope === 'all';
    const scoped: HeaderEntry[] = [];
    const extra: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (DROPPED_HEADERS.has(name.toLowerCase())) continue;
      if (everywhere && !CREDENTIAL_HEADERS.has(name.toLowerCase())) extra[name] = value;
      else scoped.push({ name, value });
    }
    if (Object.keys(extra).length > 0) await this.page.setExtraHTTPHeaders(extra);
    if (scoped.length > 0) {
      this.scoped = { origin: new URL(target).origin, headers: scoped };
      await this.session.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
    }
    await this.apply(req);
  }

  /** Sets this render's device and location before the page loads; nothing when neither is asked. */
  async apply(req: EmulationRequest): Promise<void> {
    if (!req.mobile && !req.location) return;
    this.applied = true; // a partial apply is reset too
    const resolved = req.location ? resolveLocation(req.location) : undefined;
    if (req.mobile) {
      await this.session.send('Emulation.setDeviceMetricsOverride', {
        width: MOBILE_VIEWPORT.width,
        height: MOBILE_VIEWPORT.height,
        deviceScaleFactor: MOBILE_VIEWPORT.deviceScaleFactor,
        mobile: true,
        screenWidth: MOBILE_VIEWPORT.width,
        screenHeight: MOBILE_VIEWPORT.height,
        screenOrientation: { angle: 0, type: 'portraitPrimary' },
      });
      await this.session.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
    }
    await this.session.send('Emulation.setUserAgentOverride', {
      userAgent: req.mobile ? MOBILE_USER_AGENT : this.userAgent,
      // Chromium adds the q-weights itself (it would append a second set to ours).
      ...(resolved ? { acceptLanguage: languagesOf(resolved.acceptLanguage) } : {}),
      ...(req.mobile ? { platform: 'Linux armv81', userAgentMetadata: MOBILE_UA_METADATA } : {}),
    });
    if (resolved) {
      // A zone or locale this Chromium's ICU lacks leaves the host's: not worth failing the render.
      await this.session
        .send('Emulation.setLocaleOverride', { locale: resolved.locale })
        .catch((err: unknown) => this.logger?.warn({ err: String(err) }, 'browser locale override refused'));
      await this.session
        .send('Emulation.setTimezoneOverride', { timezoneId: resolved.timezoneId })
        .catch((err: unknown) =>
          this.logger?.warn({ err: String(err) }, 'browser timezone override refused'),
        );
    }
  }

  /**
   * Every request of the page while scoped headers are set: them for the target's origin. On a
   * redirect hop to another origin, any the previous hop carried are taken off: the Chromium this
   * was built on does not keep one hop's overrides on the next (Playwright's route overrides do),
   * and a leak must not hang on that. A page's own header of the same name and another value is
   * the page's: it stays.
   */
  private onPaused(e: PausedRequest): void {
    const scope = this.scoped;
    const own = scope !== undefined && originOf(e.request.url) === scope.origin;
    const ours = (name: string, value: string) =>
      scope?.headers.some((h) => h.name.toLowerCase() === name.toLowerCase() && (own || h.value === value));
    const carried =
      !own &&
      e.redirectedRequestId !== undefined &&
      Object.entries(e.request.headers).some(([name, value]) => ours(name, value));
    let headers: HeaderEntry[] | undefined;
    if (own || carried) {
      headers = Object.entries(e.request.headers)
        .filter(([name, value]) => !ours(name, value))
        .map(([name, value]) => ({ name, value }));
      if (own) headers.push(...scope.headers);
    }
    // Not awaited: the page is closed under a pending call on abort, and nothing is left to do.
    void this.session
      .send('Fetch.continueRequest', { requestId: e.requestId, ...(headers ? { headers } : {}) })
      .catch(() => undefined);
  }

  /** Back to the desktop defaults (called when the slot is released for reuse); throws if it can't. */
  async reset(): Promise<void> {
    if (this.scoped) {
      this.scoped = undefined;
      await this.session.send('Fetch.disable');
    }
    if (!this.applied) return;
    await this.session.send('Emulation.setDeviceMetricsOverride', {
      width: DESKTOP_VIEWPORT.width,
      height: DESKTOP_VIEWPORT.height,
      deviceScaleFactor: DESKTOP_VIEWPORT.deviceScaleFactor,
      mobile: false,
      screenWidth: DESKTOP_VIEWPORT.width,
      screenHeight: DESKTOP_VIEWPORT.height,
      screenOrientation: { angle: 0, type: 'landscapePrimary' },
    });
    await this.session.send('Emulation.setTouchEmulationEnabled', { enabled: false });
    await this.session.send('Emulation.setUserAgentOverride', { userAgent: '' });
    await this.session.send('Emulation.setLocaleOverride', {});
    await this.session.send('Emulation.setTimezoneOverride', { timezoneId: '' });
    this.applied = false;
  }
}

/** The origin of a URL, '' for one without (data:, about:). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** "de-DE,de;q=0.9,en;q=0.8" → "de-DE,de,en". */
function languagesOf(acceptLanguage: string): string {
  return acceptLanguage
    .split(',')
    .map((part) => part.split(';')[0]?.trim())
    .filter(Boolean)
    .join(',');
}

const MOBILE_CHROME_MAJOR = /Chrome\/(\d+)/.exec(MOBILE_USER_AGENT)?.[1] ?? '131';
/** Client hints matching MOBILE_USER_AGENT (Sec-CH-UA-Mobile: ?1, navigator.userAgentData). */
const MOBILE_UA_METADATA = {
  brands: [
    { brand: 'Google Chrome', version: MOBILE_CHROME_MAJOR },
    { brand: 'Chromium', version: MOBILE_CHROME_MAJOR },
    { brand: 'Not_A Brand', version: '24' },
  ],
  platform: 'Android',
  platformVersion: '14',
  architecture: '',
  model: 'Pixel 8',
  mobile: true,
};
