/** Public types of @wcs/renderer plus the internal Engine contract (Crawlee-style). */
import type { Dispatcher, DocumentKind, RequestOptions } from '@wcs/net';

export type EngineName = 'fetch' | 'browser';

export interface RenderRequest {
  /** Absolute http(s) URL. */
  url: string;
  /** Default 'auto': plain fetch first, the browser only when the page needs JavaScript. */
  engine?: 'auto' | EngineName;
  /** Browser only: extra wait after load (implies the browser). */
  waitForMs?: number;
  /** Total budget for this render; default options.fetchTimeoutMs. */
  timeoutMs?: number;
  /** Extra request headers (merged under `request.headers`). */
  headers?: Record<string, string>;
  /**
   * The caller's per-request options (@wcs/net RequestOptions: headers, cookies, their scope, and
   * the upstream proxy the renderer picked). Both engines apply them all: the headers (`headers`
   * above too) go to the target's origin only — the origin of `url` — unless `headersScope` is
   * 'all'; the browser turns a Cookie header and `cookies` into cookies of the target's host.
   */
  request?: RequestOptions;
  /**
   * 'default' (the default): the next of the configured proxies (`RendererOptions.proxies`, rotated
   * per request), direct when none are configured; 'none': always direct; 'auto': direct here too
   * (the caller — the scraper's fetch ladder — asks again with 'default' when a wall answers).
   */
  proxy?: 'none' | 'default' | 'auto';
  /**
   * Browser only: after load, while this says the page's latest document is still a challenge,
   * wait for the page's own navigation (a script that sets a cookie and reloads) — at most
   * `browser.challengeWaitMs`, and never past the render's budget — and return the page after it.
   * The caller owns the recognising (this package knows no vendors).
   */
  awaitChallenge?: (answer: ChallengeAnswer) => boolean;
  /** A mobile device: viewport, touch and user agent (browser); the mobile user agent (fetch). */
  mobile?: boolean;
  /** Accept-Language for both engines; the browser's locale and timezone too. */
  location?: RenderLocation;
  /** Browser only (implies the browser): run in order after the load; the content is taken after the last. */
  actions?: BrowserAction[];
  /** Browser only (implies the browser): a PNG of the viewport or the whole page, after the actions. */
  screenshot?: 'viewport' | 'fullPage';
  signal?: AbortSignal;
  /**
   * The caller decodes and reads the fetched text itself (the scraper does it in its content
   * thread, so a page's bytes are neither decoded on the event loop nor copied to the thread as a
   * string): the fetch engine returns an HTML or text answer undecoded (`raw`, `body` ''), and
   * where `auto` would look for a page that needs JavaScript it awaits this instead. An answer that
   * needs it comes with its decoded text: the browser renders the page, and that text is the
   * result when the browser fails.
   */
  deferText?: (page: RenderResult) => Promise<DeferredTextCheck>;
  /**
   * The validators of a copy the caller keeps (the page cache, a monitor's last check): sent as
   * `If-None-Match` / `If-Modified-Since` with the main document's request (every hop of its
   * redirects; the browser: the navigation only). A `304` then comes back as `notModified` with no
   * body read, rendered or decoded — the caller reuses its copy. The browser's main document is
   * asked by the fetch engine first (Chromium aborts a navigation answered 304, reporting nothing),
   * so a 304 result names the fetch engine. Ignored with `actions` or `screenshot`.
   */
  revalidate?: Validators;
}

/** A stored response's validators (its `ETag` and `Last-Modified` headers, as they came). */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** What `deferText` found (needsJavaScript of this package, run by the caller on the decoded text). */
export type DeferredTextCheck = { needsJavaScript: false } | { needsJavaScript: true; text: string };

/** A main document as `awaitChallenge` sees it. */
export interface ChallengeAnswer {
  statusCode: number;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  body: string;
}

/** `location` of the page options: ISO country code and BCP 47 languages in preference order. */
export interface RenderLocation {
  country: string;
  languages?: string[];
}

/** One browser action (the `actions` page option; validated by @wcs/queues' pageAction schema). */
export type BrowserAction =
  | { type: 'wait'; milliseconds?: number; selector?: string }
  | { type: 'click'; selector: string; all?: boolean }
  | { type: 'write'; text: string }
  | { type: 'press'; key: string }
  | { type: 'scroll'; direction?: 'up' | 'down'; selector?: string }
  | { type: 'executeJavascript'; script: string }
  | { type: 'screenshot'; fullPage?: boolean };

/** What the actions produced, in action order per kind. */
export interface ActionOutputs {
  /** PNGs of the `screenshot` actions. */
  screenshots: Buffer[];
  /** The value each `executeJavascript` returned (JSON-serialisable; `type` is its typeof). */
  javascriptReturns: { type: string; value: unknown }[];
}

export interface RenderResult {
  requestedUrl: string;
  finalUrl: string;
  statusCode: number;
  /** Mime type only, lowercased, e.g. 'text/html'; a document's own type (application/pdf, …). */
  contentType: string;
  /** Decoded text; '' for a document (its bytes are in `bytes`). */
  body: string;
  /**
   * The raw bytes of a document (PDF or DOCX, told by sniffDocument of @wcs/net), set only for
   * documents: they are converted by the content step, never decoded as text or rendered.
   */
  bytes?: Buffer;
  /** Which document `bytes` holds. */
  documentKind?: DocumentKind;
  /**
   * With `deferText`: the fetched answer undecoded (`body` is then ''), and its Content-Type header
   * (the charset's first source after a BOM: decodeBody of @wcs/net).
   */
  raw?: { bytes: Buffer; contentTypeHeader?: string };
  engine: EngineName;
  headers: Record<string, string>;
  /** Every redirect target in order (the last one equals finalUrl); empty when not redirected. */
  redirects: string[];
  elapsedMs: number;
  /** PNG, when `screenshot` was asked for. */
  screenshot?: Buffer;
  /** When `actions` ran. */
  actions?: ActionOutputs;
  /** With `awaitChallenge`: the page looked like a challenge after load and the browser waited. */
  challenge?: { waitedMs: number; cleared: boolean };
  /**
   * With `revalidate`: the site answered `304 Not Modified` (statusCode 304, `body` '', no bytes
   * read): the caller's copy is current. Never set without `revalidate`.
   */
  notModified?: true;
}

export interface RendererLogger {
  debug(o: object, m?: string): void;
  warn(o: object, m?: string): void;
}

export interface RendererOptions {
  allowPrivateTargets: boolean;
  fetchTimeoutMs: number;
  connectTimeoutMs: number;
  maxBodyBytes: number;
  /** Cap on a document (PDF/DOCX) download instead of maxBodyBytes; default 50 MB. */
  maxDocumentBytes?: number;
  maxRedirects: number;
  userAgent: string;
  /** Upstream proxies (http://, https://, socks5://, with credentials), rotated per request; empty = direct. */
  proxies?: string[];
  /**
   * What a request that names no `proxy` gets: `auto` (default) = direct, the next proxy only when
   * a wall still stands; `always` = every request through the next proxy.
   */
  proxyMode?: 'auto' | 'always';
  browser: {
    enabled: boolean;
    executablePath: string;
    maxPages: number;
    /** Extra chromium flags appended to the defaults. */
    args?: string[];
    /** Recycle a pooled page after this many renders (default 50). */
    maxUsesPerPage?: number;
    /** Decoded bytes one render may receive, all responses summed (default 4 × maxBodyBytes). */
    maxPageBytes?: number;
    /** RSS ceiling of one renderer process in MiB (default 1024): past it, killed → TARGET_TOO_LARGE. */
    rendererMaxMb?: number;
    /** Close Chromium after this long without renders (default 60 s; 0 = never). */
    idleCloseMs?: number;
    /** Longest wait for a challenge to clear itself (`awaitChallenge`), within the budget (default 15 s). */
    challengeWaitMs?: number;
  };
  /** pino-compatible */
  logger?: RendererLogger;
}

export interface Renderer {
  render(req: RenderRequest): Promise<RenderResult>;
  /** What this deployment can do beyond a plain fetch: the scraper's ladder escalates only to these. */
  readonly features: { browser: boolean; proxies: boolean; proxyMode: 'auto' | 'always' };
  /**
   * The address policy every render applies first (scheme, credentials, every resolved address
   * public unless ALLOW_PRIVATE_TARGETS), without fetching: for a copy of the page kept elsewhere
   * (the page cache), which must not be served for a URL the policy refuses now.
   */
  checkTarget(url: string): Promise<void>;
  close(): Promise<void>;
}

/** Per-render context handed to an engine by the renderer. */
export interface RenderContext {
  /** Epoch ms by which the render must be done (total budget). */
  deadline: number;
  /** Aborted on caller abort or when the deadline passes; engines must stop promptly. */
  signal: AbortSignal;
  started: number;
}

export interface Engine {
  readonly name: EngineName;
  render(req: RenderRequest, ctx: RenderContext): Promise<RenderResult>;
  close(): Promise<void>;
}

export type { Dispatcher, DocumentKind };
