/**
 * PNG screenshots through the slot's own CDP session (not page.screenshot: Playwright sizes the
 * picture from the context's viewport, which knows nothing of the per-render mobile emulation).
 * A viewport picture is the viewport at the device scale factor (desktop 1280×720; mobile
 * 412×915 CSS px at 2.625 → 1082×2402). A full-page picture is bounded, see the caps below.
 */
import type { CDPSession } from 'playwright-core';

/**
 * Full-page screenshots stop at this height in CSS px: a page can be endlessly tall, and the
 * bitmap (width × height × 4 bytes) lives in the renderer and the browser while it is encoded.
 */
export const FULL_PAGE_MAX_CSS_HEIGHT = 16_384;
/** …and at this width (pages that overflow sideways). */
export const FULL_PAGE_MAX_CSS_WIDTH = 4_096;
/**
 * Device pixels of one screenshot at most: 1280 × 16,384 ≈ 21 Mpx ≈ 84 MB of raw RGBA. A desktop
 * page gets its 16,384 CSS px; a mobile one (scale 2.625, 412 px wide) stops at 7,387 CSS px.
 */
export const SCREENSHOT_MAX_PIXELS = 1_280 * 16_384;

export interface ScreenshotOptions {
  fullPage: boolean;
  /** The page's device scale factor (emulation), to keep full-page pictures in the pixel budget. */
  deviceScaleFactor: number;
}

export async function captureScreenshot(session: CDPSession, opts: ScreenshotOptions): Promise<Buffer> {
  if (!opts.fullPage) {
    const { data } = await session.send('Page.captureScreenshot', { format: 'png' });
    return Buffer.from(data, 'base64');
  }
  const { cssContentSize } = await session.send('Page.getLayoutMetrics');
  const clip = fullPageClip(cssContentSize, opts.deviceScaleFactor);
  const { data } = await session.send('Page.captureScreenshot', {
    format: 'png',
    captureBeyondViewport: true,
    clip: { x: 0, y: 0, ...clip, scale: 1 },
  });
  return Buffer.from(data, 'base64');
}

/** The CSS-px region of a full-page picture: the document, capped as documented above. */
export function fullPageClip(
  content: { width: number; height: number },
  deviceScaleFactor: number,
): { width: number; height: number } {
  const width = Math.max(1, Math.min(Math.ceil(content.width), FULL_PAGE_MAX_CSS_WIDTH));
  const byPixels = Math.floor(SCREENSHOT_MAX_PIXELS / (width * deviceScaleFactor * deviceScaleFactor));
  const height = Math.max(1, Math.min(Math.ceil(content.height), FULL_PAGE_MAX_CSS_HEIGHT, byPixels));
  return { width, height };
}

/** Width and height from a PNG's IHDR chunk (tests, logs). */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('Not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
