import type { RendererOptions } from '../types';

/** Renderer options for tests: short timeouts, loopback fixtures allowed unless overridden. */
export function testOptions(over: Partial<RendererOptions> = {}): RendererOptions {
  return {
    allowPrivateTargets: true,
    fetchTimeoutMs: 5_000,
    connectTimeoutMs: 2_000,
    maxBodyBytes: 10 * 1024 * 1024,
    maxRedirects: 10,
    userAgent: 'wcs-renderer-test/1.0',
    browser: { enabled: false, executablePath: '/usr/bin/chromium', maxPages: 2 },
    ...over,
  };
}

/** A context for calling an engine directly (normally the renderer builds it). */
export function testContext(timeoutMs = 5_000): {
  started: number;
  deadline: number;
  signal: AbortSignal;
} {
  const started = Date.now();
  return { started, deadline: started + timeoutMs, signal: AbortSignal.timeout(timeoutMs) };
}
