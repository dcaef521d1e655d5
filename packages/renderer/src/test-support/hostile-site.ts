/**
 * A hostile site for the browser-hardening tests: huge, endless and bomb bodies, app shells that
 * iframe or fetch endless streams, pages that allocate without bound, and a page that tries every
 * non-HTTP channel (WebRTC, WebTransport, WebSocket, EventSource, beacon, fetch, iframe, redirect,
 * workers) against the sink addresses it is given. It listens on 127.0.0.1.
 */
import http from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { type ListeningServer, listenLocal } from '@wcs/testing';

const CHUNK = Buffer.from(`<p>${'hostile '.repeat(8190)}</p>\n`); // ~64 KiB of markup

export interface ChannelTargets {
  /** UDP sinks (host:port) for stun/turn and WebTransport. */
  udp: Array<{ host: string; port: number }>;
  /** A TCP sink on a forbidden address, e.g. 127.0.0.2:port. */
  tcp: { host: string; port: number };
}

export interface HostileSite extends ListeningServer {
  /** Call before rendering /channels: resolves with that page's own report once it has tried everything. */
  nextChannelsReport: () => Promise<Record<string, string>>;
}

/** A body of `bytes` decoded bytes, compressed (a bomb: ~1000× smaller on the wire). */
async function bomb(bytes: number, encoding: 'gzip' | 'br'): Promise<Buffer> {
  const html = Buffer.concat([Buffer.from('<html><body><p>'), Buffer.alloc(bytes, 'a')]);
  return encoding === 'gzip'
    ? promisify(zlib.gzip)(html, { level: 9 })
    : promisify(zlib.brotliCompress)(html, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
      });
}

/** Writes CHUNKs until `total` bytes (or forever), respecting backpressure; `js`: one big comment. */
function stream(res: http.ServerResponse, total = Number.POSITIVE_INFINITY, js = false): void {
  res.writeHead(200, { 'content-type': js ? 'text/javascript' : 'text/html' });
  res.write(js ? '/*' : '<!doctype html><html><body>');
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end(js ? '*/' : '</body></html>');
  };
  res.on('error', () => undefined);
  pump();
}

const html = (body: string, head = '') =>
  `<!doctype html><html><head><title>hostile</title>${head}</head><body>${body}</body></html>`;

/** In-page allocation bombs: each keeps everything reachable until the renderer dies. */
const ALLOCATORS: Record<string, string> = {
  'alloc-js': `const keep = []; let n = 0; (function grow() { for (let i = 0; i < 16; i++, n++) { keep.push(new Array(1e6).fill(n)); keep.push(String(n).padEnd(1 << 20, 'x')); } setTimeout(grow, 0); })();`,
  'alloc-buffers': `const keep = []; (function grow() { try { for (let i = 0; i < 8; i++) { const b = new Uint8Array(8 << 20); b.fill(7); keep.push(b); } } catch (e) { document.title = String(e); } setTimeout(grow, 0); })();`,
  // In a hidden box: DOM memory grows as fast as nodes are made, not at the pace of laying out and
  // shaping ever more text (visible, a loaded CI machine did not reach the ceiling in 30 s).
  'alloc-dom': `const box = document.body.appendChild(document.createElement('div')); box.hidden = true; (function grow() { const f = document.createDocumentFragment(); for (let i = 0; i < 20000; i++) { const d = document.createElement('div'); d.className = 'c' + i; d.textContent = 'x'.repeat(2000) + i; f.appendChild(d); } box.appendChild(f); setTimeout(grow, 0); })();`,
};

/** `udpOnly`: just WebRTC and WebTransport (for a policy that allows the TCP sink). */
function channelsPage(t: ChannelTargets, udpOnly: boolean): string {
  const tcp = `${t.tcp.host}:${t.tcp.port}`;
  const ice = t.udp.flatMap((u) => [
    { urls: `stun:${u.host}:${u.port}` },
    { urls: `turn:${u.host}:${u.port}?transport=udp`, username: 'u', credential: 'p' },
  ]);
  ice.push({ urls: `turn:${tcp}?transport=tcp`, username: 'u', credential: 'p' });
  const wt = t.udp.map((u) => `https://${u.host}:${u.port}/`);
  return html(
    `<iframe src="/hold"></iframe><script>
const out = {};
const bounded = (p, ms = 3000) => Promise.race([p, new Promise((r) => setTimeout(() => r('timeout'), ms))]);
const attempt = async (name, fn) => { try { out[name] = String(await bounded(fn())); } catch (e) { out[name] = 'error: ' + (e && e.message || e); } };
async function rtc(W) {
  // The init script removes the constructors; look for a copy in a fresh about:blank frame too.
  const PC = W.RTCPeerConnection || W.webkitRTCPeerConnection;
  if (!PC) return 'unavailable';
  const pc = new PC({ iceServers: ${JSON.stringify(ice)} });
  pc.createDataChannel('x');
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((r) => { pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && r(); setTimeout(r, 2500); });
  return 'gathered:' + pc.iceGatheringState;
}
function once(target, ok, bad) { return new Promise((r) => { target[ok] = () => r(ok); target[bad] = () => r(bad); }); }
(async () => {
  await attempt('rtc', () => rtc(window));
  const blank = document.createElement('iframe'); document.body.appendChild(blank);
  await attempt('rtcBlankFrame', () => rtc(blank.contentWindow));
  ${wt.map((u, i) => `await attempt('webtransport${i}', async () => { const W = window.WebTransport || blank.contentWindow.WebTransport; if (!W) return 'unavailable'; const w = new W(${JSON.stringify(u)}); await w.ready; return 'open'; });`).join('\n  ')}
  if (${udpOnly}) return void fetch('/done', { method: 'POST', body: JSON.stringify(out) });
  await attempt('websocket', () => once(new WebSocket('ws://${tcp}/ws'), 'onopen', 'onerror'));
  await attempt('eventsource', () => { const es = new EventSource('http://${tcp}/es'); return once(es, 'onopen', 'onerror').finally(() => es.close()); });
  await attempt('beacon', async () => navigator.sendBeacon('http://${tcp}/beacon', 'x'));
  await attempt('fetch', async () => (await fetch('http://${tcp}/fetch', { mode: 'no-cors' })).type);
  await attempt('xhr', () => { const x = new XMLHttpRequest(); x.open('GET', 'http://${tcp}/xhr'); x.send(); return once(x, 'onload', 'onerror'); });
  await attempt('redirect', async () => (await fetch('/redirect?to=' + encodeURIComponent('http://${tcp}/redirected'))).status);
  await attempt('iframe', () => { const f = document.createElement('iframe'); f.src = 'http://${tcp}/frame'; document.body.appendChild(f); return once(f, 'onload', 'onerror'); });
  await attempt('iframeRedirect', () => { const f = document.createElement('iframe'); f.src = '/redirect?to=' + encodeURIComponent('http://${tcp}/frame-redirected'); document.body.appendChild(f); return once(f, 'onload', 'onerror'); });
  await attempt('worker', () => new Promise((resolve) => {
    const src = \`onmessage = async () => { const r = {}; try { const W = self.WebTransport; if (W) { const w = new W(${JSON.stringify(wt[wt.length - 1])}); await Promise.race([w.ready, new Promise((x) => setTimeout(x, 2500))]); r.wt = 'tried'; } } catch (e) { r.wt = String(e); }
      try { await fetch('http://${tcp}/worker-fetch', { mode: 'no-cors' }); r.fetch = 'ok'; } catch (e) { r.fetch = String(e); }
      try { const s = new WebSocket('ws://${tcp}/worker-ws'); await new Promise((x) => { s.onopen = s.onerror = x; setTimeout(x, 2500); }); r.ws = String(s.readyState); } catch (e) { r.ws = String(e); }
      postMessage(JSON.stringify(r)); };\`;
    const w = new Worker(URL.createObjectURL(new Blob([src])));
    w.onmessage = (e) => resolve(e.data); w.postMessage(1);
  }), 9000);
  await fetch('/done', { method: 'POST', body: JSON.stringify(out) });
})();
</script>`,
  );
}

export async function startHostileSite(targets: ChannelTargets): Promise<HostileSite> {
  const bodies = { gzip: await bomb(200 << 20, 'gzip'), br: await bomb(200 << 20, 'br') };
  let report: ((r: Record<string, string>) => void) | undefined;
  let reported = Promise.resolve<Record<string, string>>({});
  const nextChannelsReport = () => {
    reported = new Promise<Record<string, string>>((r) => {
      report = r;
    });
    return reported;
  };
  const holds = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const page = url.pathname.slice(1);
    if (page === 'big') return stream(res, 50 << 20);
    if (page === 'endless') return stream(res);
    if (page === 'gzip-bomb' || page === 'brotli-bomb') {
      const enc = page === 'gzip-bomb' ? 'gzip' : 'br';
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': enc });
      return void res.end(bodies[enc === 'gzip' ? 'gzip' : 'br']);
    }
    if (page === 'sized' || page === 'sized.js')
      return stream(res, Number(url.searchParams.get('mb') ?? 1) << 20, page === 'sized.js');
    res.setHeader('content-type', 'text/html');
    if (page === 'app-shell-iframe')
      return void res.end(
        html(
          `<div id="root"></div><script>const f = document.createElement('iframe'); f.src = ${JSON.stringify(url.searchParams.get('src') ?? '/endless')}; document.getElementById('root').appendChild(f);</script>`,
        ),
      );
    if (page === 'app-shell-fetch')
      return void res.end(
        html(
          `<div id="root"></div><script>let kept = ''; fetch('/endless').then(async (r) => { const rd = r.body.getReader(); const d = new TextDecoder(); for (;;) { const { value, done } = await rd.read(); if (done) break; kept += d.decode(value); } });</script>`,
        ),
      );
    if (page === 'app-shell-worker-fetch') {
      // A dedicated worker streams /endless and keeps it; the load event is held by /hang.
      const worker = `let kept = ''; fetch(self.origin + '/endless').then(async (r) => { const rd = r.body.getReader(); const d = new TextDecoder(); for (;;) { const { value, done } = await rd.read(); if (done) break; kept += d.decode(value); } });`;
      return void res.end(
        html(
          `<div id="root"></div><iframe src="/hang"></iframe><script>new Worker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}])));</script>`,
        ),
      );
    }
    if (page === 'many-scripts') {
      // Each response under the per-response cap, together over the page cap.
      const n = Number(url.searchParams.get('n') ?? 6);
      const mb = Number(url.searchParams.get('mb') ?? 8);
      const tags = Array.from({ length: n }, (_, i) => `<script src="/sized.js?mb=${mb}&i=${i}"></script>`);
      return void res.end(html(`${tags.join('')}<p>after the scripts</p>`));
    }
    // The never-answering iframe holds the load event, so the render lasts until something stops it.
    if (page in ALLOCATORS)
      return void res.end(
        html(`<div id="root"></div><iframe src="/hang"></iframe><script>${ALLOCATORS[page]}</script>`),
      );
    if (page === 'hang') return void holds.add(res);
    if (page === 'channels') return void res.end(channelsPage(targets, url.searchParams.has('udp-only')));
    if (page === 'redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      return void res.end();
    }
    if (page === 'hold') {
      // Holds the channel page's load event until it has reported (never a fixed sleep).
      holds.add(res);
      void reported.then(() => res.end('held'));
      return;
    }
    if (page === 'done') {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        report?.(JSON.parse(body) as Record<string, string>);
        res.end('ok');
      });
      return;
    }
    if (page === 'binary-as-html') {
      // A PNG signature and binary bytes, declared as HTML.
      const png = Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.alloc(4096, 0x01),
      ]);
      return void res.end(png);
    }
    if (page === 'big-binary-as-html') {
      // 2 MB of image-like bytes as HTML: Chromium would spend tens of seconds laying it out as text.
      // Sent as a network delivers it (64 KB chunks, 20 ms apart), not all at once from loopback.
      const head = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const body = Buffer.from(Array.from({ length: 2 * 1024 * 1024 }, (_, i) => (i * 131 + 7) % 256));
      const all = Buffer.concat([head, body]);
      let at = 0;
      const next = () => {
        if (res.destroyed) return;
        const chunk = all.subarray(at, at + 64 * 1024);
        at += chunk.length;
        if (at >= all.length) return void res.end(chunk);
        res.write(chunk);
        setTimeout(next, 20);
      };
      return next();
    }
    if (page === 'binary-bytes-as-html')
      return void res.end(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256)));
    if (page === 'ok') return void res.end(html('<main><h1>Still serving</h1><p>ok</p></main>'));
    res.writeHead(404).end('not found');
  });
  const listening = await listenLocal(server);
  return {
    ...listening,
    nextChannelsReport,
    close: async () => {
      for (const h of holds) h.destroy();
      await listening.close();
    },
  };
}
