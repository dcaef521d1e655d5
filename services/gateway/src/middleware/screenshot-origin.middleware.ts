import type { NextFunction, Request, Response } from 'express';

/** A capability URL as the workers write it; group 1 is what stays (path and token). */
const SCREENSHOT_URL_RE = /^https?:\/\/[^/?#\s]+(?:\/[^?#\s]*)?(\/v1\/screenshots\/[A-Za-z0-9_-]{74}\.png)$/;
/** A host as a URL may carry it: name or IPv4, or [IPv6], and a port. */
const HOST_RE = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Without PUBLIC_URL, the workers cannot know where callers reach the gateway (another port, a
 * proxy's host) and write screenshot URLs on http://localhost:3002. This middleware gives every
 * JSON answer's screenshot URLs (`screenshot`, `screenshots` fields: native and Firecrawl documents,
 * single or in lists) the origin this caller used: `req.protocol` and `req.host`, which honour
 * X-Forwarded-Proto/-Host only from the proxies TRUST_PROXY names. Mounted only when PUBLIC_URL is
 * unset; the URL goes back to the caller who sent those headers, nowhere else.
 */
export function screenshotOriginMiddleware() {
  return (req: Request, res: Response, next: NextFunction) => {
    const host = req.host;
    if (host && HOST_RE.test(host)) {
      const origin = `${req.protocol}://${host}`;
      const json = res.json.bind(res);
      res.json = (body?: unknown) => json(withScreenshotOrigin(body, origin));
    }
    next();
  };
}

/** `value` with its screenshot URLs on `origin`; unchanged parts are shared, nothing is mutated. */
export function withScreenshotOrigin(value: unknown, origin: string): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = withScreenshotOrigin(item, origin);
      if (next === item) return;
      out ??= value.slice();
      out[i] = next;
    });
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    let next: unknown;
    if (key === 'screenshot' && typeof item === 'string') next = onOrigin(item, origin);
    else if (key === 'screenshots' && Array.isArray(item)) {
      const urls = item.map((u) => (typeof u === 'string' ? onOrigin(u, origin) : u));
      next = urls.some((u, i) => u !== item[i]) ? urls : item;
    } else next = withScreenshotOrigin(item, origin);
    if (next === item) continue;
    out ??= { ...value };
    out[key] = next;
  }
  return out ?? value;
}

function onOrigin(url: string, origin: string): string {
  const path = SCREENSHOT_URL_RE.exec(url)?.[1];
  if (!path) return url;
  const moved = `${origin}${path}`;
  return moved === url ? url : moved;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
