/**
 * The browser's request guard: every request a pooled page makes passes here (Playwright route on
 * the slot's context). Resource types a text render never needs are blocked (images and fonts load
 * when the render takes a screenshot), every URL is checked against the address policy, and the main
 * document's redirect chain is bounded. What it refuses for the main document is left on the render's
 * `Lease` for the engine to answer with.
 */
import { type ServiceError, TooManyRedirectsError } from '@wcs/errors';
import { type AddressPolicy, checkUrl } from '@wcs/net';
import type { Request, Route } from 'playwright-core';
import { asServiceError } from './browser-errors';
import type { BrowserSlot } from './browser-pool';
import type { RendererLogger } from './types';

/** Per-render state of a busy slot, shared by the engine and its request guard. */
export interface Lease {
  /** Why the main document (or one of its redirect hops) was refused. */
  refused?: ServiceError;
  /** A byte cap was passed while loading. */
  tooLarge?: ServiceError;
  /** Set when the main document's first bytes are binary (the page is stopped at once). */
  unsupported?: ServiceError;
  blocked: number;
  /** The render takes a screenshot: images and fonts load (through the same checks and meter). */
  loadImages: boolean;
  /** An action failed: the page is in a state nobody chose, so it is not reused. */
  actionFailed?: boolean;
}

/** Resource types never needed for text content; blocking them saves most of the bandwidth/CPU. */
const BLOCKED_RESOURCE_TYPES = new Set(['image', 'media', 'font']);

export interface RequestGuardOptions {
  policy: AddressPolicy | undefined;
  maxRedirects: number;
  logger?: RendererLogger | undefined;
}

export async function guardRequest(
  slot: BrowserSlot,
  lease: Lease,
  route: Route,
  request: Request,
  opts: RequestGuardOptions,
): Promise<void> {
  const isMainDocument = request.isNavigationRequest() && request.frame() === slot.page.mainFrame();
  try {
    const type = request.resourceType();
    if (BLOCKED_RESOURCE_TYPES.has(type) && !(lease.loadImages && (type === 'image' || type === 'font'))) {
      lease.blocked++;
      return await route.abort('blockedbyclient');
    }
    const url = request.url();
    // A document of this origin may store data: the pool wipes it before the slot's next caller.
    if (request.isNavigationRequest() && /^https?:/i.test(url)) slot.origins.add(new URL(url).origin);
    if (!url.startsWith('data:') && !url.startsWith('blob:')) {
      try {
        await checkUrl(url, opts.policy);
      } catch (err) {
        lease.blocked++;
        if (isMainDocument) lease.refused = asServiceError(err, url);
        opts.logger?.debug({ url, reason: String(err) }, 'browser request refused');
        return await route.abort('blockedbyclient');
      }
    }
    if (isMainDocument && redirectDepth(request) > opts.maxRedirects) {
      lease.refused = new TooManyRedirectsError(`More than ${opts.maxRedirects} redirects`);
      return await route.abort('blockedbyclient');
    }
    await route.continue();
  } catch {
    // The page was closed mid-request (abort/timeout); nothing left to route.
  }
}

function redirectDepth(request: Request): number {
  let n = 0;
  for (let r = request.redirectedFrom(); r; r = r.redirectedFrom()) n++;
  return n;
}
