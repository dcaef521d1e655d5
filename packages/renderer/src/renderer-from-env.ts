import { createRenderer } from './renderer';
import type { Renderer, RendererLogger } from './types';

/**
 * The renderer settings every worker's config carries (the `renderEnv` schema of @wcs/config,
 * described structurally so this package needs no config dependency).
 */
export interface RenderSettings {
  ALLOW_PRIVATE_TARGETS: boolean;
  FETCH_TIMEOUT_MS: number;
  FETCH_CONNECT_TIMEOUT_MS: number;
  MAX_BODY_BYTES: number;
  /** Cap on a PDF/DOCX download; absent = the renderer's default (50 MB). */
  MAX_DOCUMENT_BYTES?: number;
  MAX_REDIRECTS: number;
  USER_AGENT: string;
  BROWSER_ENABLED: boolean;
  BROWSER_EXECUTABLE: string;
  BROWSER_MAX_PAGES: number;
  BROWSER_MAX_PAGE_BYTES: number;
  BROWSER_MAX_RENDERER_MB: number;
  /** Close an unused Chromium after this many ms (0 = never); absent = the renderer's default (60 s). */
  BROWSER_IDLE_CLOSE_MS?: number;
  /** Longest wait for a challenge page to clear itself in the browser (the scraper's ladder); absent = 15 s. */
  BROWSER_CHALLENGE_WAIT_MS?: number;
  /** Upstream proxy URLs (validated by the schema), rotated per request; absent/empty = direct. */
  PROXY_URLS?: string[];
  /** What a request that names no `proxy` gets (absent = `auto`). */
  PROXY_MODE?: 'auto' | 'always';
}

/** One renderer (and so one Chromium pool) per worker process, from its parsed config. */
export function createRendererFromEnv(env: RenderSettings, logger?: RendererLogger): Renderer {
  return createRenderer({
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS,
    fetchTimeoutMs: env.FETCH_TIMEOUT_MS,
    connectTimeoutMs: env.FETCH_CONNECT_TIMEOUT_MS,
    maxBodyBytes: env.MAX_BODY_BYTES,
    ...(env.MAX_DOCUMENT_BYTES ? { maxDocumentBytes: env.MAX_DOCUMENT_BYTES } : {}),
    maxRedirects: env.MAX_REDIRECTS,
    userAgent: env.USER_AGENT,
    ...(env.PROXY_URLS && env.PROXY_URLS.length > 0 ? { proxies: env.PROXY_URLS } : {}),
    ...(env.PROXY_MODE ? { proxyMode: env.PROXY_MODE } : {}),
    browser: {
      enabled: env.BROWSER_ENABLED,
      executablePath: env.BROWSER_EXECUTABLE,
      maxPages: env.BROWSER_MAX_PAGES,
      ...(env.BROWSER_MAX_PAGE_BYTES > 0 ? { maxPageBytes: env.BROWSER_MAX_PAGE_BYTES } : {}),
      rendererMaxMb: env.BROWSER_MAX_RENDERER_MB,
      ...(env.BROWSER_IDLE_CLOSE_MS === undefined ? {} : { idleCloseMs: env.BROWSER_IDLE_CLOSE_MS }),
      ...(env.BROWSER_CHALLENGE_WAIT_MS === undefined
        ? {}
        : { challengeWaitMs: env.BROWSER_CHALLENGE_WAIT_MS }),
    },
    ...(logger ? { logger } : {}),
  });
}
