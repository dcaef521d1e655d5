/**
 * What closes Chromium's non-HTTP channels. Measured with Debian's chromium 156 and a UDP listener
 * (see docs/reliability/browser.md):
 * - `--webrtc-ip-handling-policy=disable_non_proxied_udp` (a pref switch; Chromium has no
 *   `--force-…` variant in this build): STUN/TURN/ICE send no UDP, also from an about:blank iframe
 *   the init script cannot reach. Without it, packets reach 127.0.0.1.
 * - WebTransport (HTTP/3 over UDP) ignores `--disable-quic` and `--disable-blink-features`; it is
 *   closed because Chromium refuses WebTransport through a proxy, which is why the engine always
 *   runs the guarded proxy, also when private targets are allowed.
 * - `--disable-quic`: no HTTP/3 for ordinary requests, so every byte goes through the proxy.
 * - `--disable-site-isolation-trials`: cross-site iframes stay in the page's renderer, so its CDP
 *   session sees their network bytes and a renderer kill lands on the render that owns it (each
 *   pooled slot is its own browser context, and contexts never share a renderer).
 */
export function hardeningArgs(rendererMaxMb: number): string[] {
  // V8's heap bounded at the ceiling, not under it: measured, a JS bomb at V8's limit does not
  // crash but thrashes in GC until the deadline (504), so the RSS watchdog must see it pass first.
  const oldSpaceMb = Math.max(64, rendererMaxMb);
  return [
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--disable-quic',
    '--disable-site-isolation-trials',
    `--js-flags=--max-old-space-size=${oldSpaceMb}`,
  ];
}

/**
 * Init script for every document: belt and braces over the flags (workers and about:blank frames
 * are not reached by it, the flags and the proxy are what hold there).
 */
export const LOCKDOWN_SCRIPT = `(() => {
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel',
    'RTCSessionDescription', 'RTCIceCandidate', 'WebTransport']) {
    try { Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false }); } catch {}
  }
})();`;
