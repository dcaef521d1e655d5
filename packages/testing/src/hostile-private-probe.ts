/**
 * The "private connections" case: listeners that count whatever reaches them, and a page that
 * tries every channel a browser has towards them (WebRTC STUN/TURN and WebTransport over UDP, WebSocket,
 * EventSource, sendBeacon, fetch, iframe, image). A safe renderer lets none of it through.
 *
 * Addresses: the UDP listener is on 127.0.0.1 (WebRTC must send no non-proxied UDP whatever the
 * address policy says); the TCP listener is on 127.0.0.2, which is loopback like the site but a
 * different address, so a policy that allows exactly 127.0.0.1 (the site) must refuse it.
 */
import dgram from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const PRIVATE_TCP_HOST = '127.0.0.2';
export const PRIVATE_UDP_HOST = '127.0.0.1';
export const PRIVATE_PROBE_TEXT = 'Private connection probes fired';

export interface PrivateListeners {
  tcpPort: number;
  udpPort: number;
  /** TCP connections accepted (WebSocket, EventSource, beacon, fetch, iframe, image all count). */
  tcpConnections(): number;
  udpPackets(): number;
  close(): Promise<void>;
}

export async function startPrivateListeners(): Promise<PrivateListeners> {
  let tcp = 0;
  let udp = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => res.end('reached a private address'));
  server.on('connection', (s) => {
    tcp++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, PRIVATE_TCP_HOST, () => resolve());
  });
  const socket = dgram.createSocket('udp4');
  socket.on('message', () => {
    udp++;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, PRIVATE_UDP_HOST, () => resolve());
  });
  return {
    tcpPort: (server.address() as AddressInfo).port,
    udpPort: socket.address().port,
    tcpConnections: () => tcp,
    udpPackets: () => udp,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        socket.close(() => server.close(() => resolve()));
      }),
  };
}

/**
 * The probing page. Its parser blocks on `hold.js` (held by the site until `/fired` arrives or
 * 5 s pass), so the page's load — which the renderer waits for — happens only after every probe
 * has been tried and ICE gathering is over: the test then reads the counters without sleeping.
 */
export function privateProbeHtml(selfPath: string, l: { tcpPort: number; udpPort: number }): string {
  const tcp = `${PRIVATE_TCP_HOST}:${l.tcpPort}`;
  const udp = `${PRIVATE_UDP_HOST}:${l.udpPort}`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Private probes</title></head><body>
<main><h1>Private probes</h1>
<script>
(function () {
  var tries = [];
  function attempt(name, fn) { try { fn(); tries.push(name); } catch (e) { tries.push(name + ':' + e.name); } }
  var finished = false;
  function finish() {
    if (finished) return; finished = true;
    fetch('${selfPath}/fired?tried=' + encodeURIComponent(tries.join(','))).catch(function () {});
  }
  attempt('websocket', function () { new WebSocket('ws://${tcp}/ws'); });
  attempt('eventsource', function () { new EventSource('http://${tcp}/es'); });
  attempt('beacon', function () { navigator.sendBeacon('http://${tcp}/beacon', 'x'); });
  attempt('fetch', function () { fetch('http://${tcp}/fetch', { mode: 'no-cors' }).catch(function () {}); });
  attempt('webtransport', function () {
    new WebTransport('https://${udp}/wt').ready.catch(function () {});
  });
  attempt('image', function () { new Image().src = 'http://${tcp}/img.png'; });
  attempt('iframe', function () {
    var f = document.createElement('iframe'); f.src = 'http://${tcp}/frame'; document.body.appendChild(f);
  });
  var rtc = false;
  attempt('webrtc', function () {
    var pc = new RTCPeerConnection({ iceServers: [
      { urls: 'stun:${udp}' },
      { urls: 'turn:${udp}?transport=udp', username: 'u', credential: 'p' }
    ] });
    pc.createDataChannel('probe');
    pc.onicegatheringstatechange = function () { if (pc.iceGatheringState === 'complete') finish(); };
    pc.createOffer().then(function (o) { return pc.setLocalDescription(o); }).catch(finish);
    rtc = true;
  });
  // ICE gathering normally completes in well under 3 s; never leave the page hanging on it.
  setTimeout(finish, rtc ? 3000 : 0);
})();
</script>
<script src="${selfPath}/hold.js"></script>
<p>${PRIVATE_PROBE_TEXT}. The page tried WebRTC, WebSocket, EventSource, beacon, fetch, image and iframe connections to private addresses.</p>
</main></body></html>`;
}
