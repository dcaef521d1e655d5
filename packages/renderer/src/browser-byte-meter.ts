/**
 * Counts the decoded bytes a page receives while they arrive (CDP `Network.dataReceived` carries
 * the decoded chunk length, so gzip/brotli bombs count at their inflated size) and reports the
 * first chunk past a cap: per response (`maxResponseBytes`) and per render (`maxPageBytes`, every
 * response, iframe and WebSocket frame summed). One meter per pooled page, armed per render.
 * Dedicated workers (and any out-of-process iframe) are separate CDP targets whose requests the
 * page's session does not see: the meter auto-attaches to them in non-flat mode (messages wrapped
 * in Target.sendMessageToTarget, since Playwright's session cannot address flat child sessions).
 */
import type { CDPSession, Page } from 'playwright-core';
import { HeadSniffer } from './browser-head-sniffer';

/** A worker's session never reads bodies, so Chromium need not keep any for it. */
const NETWORK_BUFFERS = { maxTotalBufferSize: 1024, maxResourceBufferSize: 1024 };
/**
 * The page's session reads one body: the main document's bytes that arrived before the head
 * sniffer switched streaming on. A fast server sends a whole 1 MB body within that one CDP round
 * trip, and Chromium hands it back (`bufferedData`) only when this session kept it: with 1 KB
 * buffers it kept nothing and binary served as HTML was laid out as text (seconds alone, past a
 * 30 s budget under load) before `response.body()` could refuse it. Up to 8 MB per body, 16 MB per
 * page, oldest dropped first (measured: no change in the renderer's peak RSS over 40 article pages).
 */
const PAGE_NETWORK_BUFFERS = { maxTotalBufferSize: 16 * 1024 * 1024, maxResourceBufferSize: 8 * 1024 * 1024 };

function isEvent(m: unknown): m is { method: string; params: Record<string, unknown> } {
  if (typeof m !== 'object' || m === null) return false;
  const { method, params } = m as { method?: unknown; params?: unknown };
  return typeof method === 'string' && typeof params === 'object' && params !== null;
}

export interface ByteCaps {
  maxResponseBytes: number;
  maxPageBytes: number;
}

export interface CapExceeded {
  kind: 'response' | 'page';
  bytes: number;
  limit: number;
  url?: string;
}

interface Armed {
  caps: ByteCaps;
  total: number;
  perRequest: Map<string, number>;
  urls: Map<string, string>;
  onExceeded: (e: CapExceeded) => void;
  fired: boolean;
}

export class ByteMeter {
  private armed: Armed | undefined;

  /** The main document's first bytes, on the same session (binary served as HTML stops early). */
  readonly head: HeadSniffer;

  private constructor(
    private readonly session: CDPSession,
    mainFrameId: string,
  ) {
    this.head = new HeadSniffer(session, mainFrameId);
    session.on('Network.requestWillBeSent', (e) => this.armed?.urls.set(e.requestId, e.request.url));
    session.on('Network.dataReceived', (e) => this.add(e.requestId, e.dataLength));
    session.on('Network.webSocketFrameReceived', (e) =>
      this.add(`ws:${e.requestId}`, e.response.payloadData.length),
    );
    session.on('Target.attachedToTarget', (e) => {
      const message = JSON.stringify({ id: 1, method: 'Network.enable', params: NETWORK_BUFFERS });
      void session
        .send('Target.sendMessageToTarget', { sessionId: e.sessionId, message })
        .catch(() => undefined);
    });
    session.on('Target.receivedMessageFromTarget', (e) => this.onChildMessage(e.sessionId, e.message));
  }

  /** Attaches to a page's renderer (buffers: see PAGE_NETWORK_BUFFERS). */
  static async attach(page: Page): Promise<ByteMeter> {
    const session = await page.context().newCDPSession(page);
    await session.send('Network.enable', PAGE_NETWORK_BUFFERS);
    await session.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: false,
    });
    const { frameTree } = await session.send('Page.getFrameTree');
    return new ByteMeter(session, frameTree.frame.id);
  }

  /** Starts counting for one render; `onExceeded` is called once, on the first byte past a cap. */
  arm(caps: ByteCaps, onExceeded: (e: CapExceeded) => void): void {
    this.armed = { caps, total: 0, perRequest: new Map(), urls: new Map(), onExceeded, fired: false };
  }

  /** Bytes counted since arm() (for logs and tests). */
  get total(): number {
    return this.armed?.total ?? 0;
  }

  disarm(): void {
    this.armed = undefined;
    this.head.disarm();
  }

  /** A full GC in the page's renderer (after a render, so its garbage does not stay resident). */
  async collectGarbage(): Promise<void> {
    await this.session.send('HeapProfiler.collectGarbage').catch(() => undefined);
  }

  async detach(): Promise<void> {
    this.armed = undefined;
    await this.session.detach().catch(() => undefined);
  }

  /** A worker's (or OOPIF's) own Network events, as JSON text; anything else is ignored. */
  private onChildMessage(sessionId: string, text: string): void {
    if (!this.armed || !text.includes('"Network.')) return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (!isEvent(msg)) return;
    const { method, params } = msg;
    const requestId = `${sessionId}:${String(params.requestId)}`;
    if (method === 'Network.dataReceived' && typeof params.dataLength === 'number')
      this.add(requestId, params.dataLength);
    else if (method === 'Network.requestWillBeSent') {
      const url = (params.request as { url?: unknown } | undefined)?.url;
      if (typeof url === 'string') this.armed.urls.set(requestId, url);
    }
  }

  private add(requestId: string, n: number): void {
    const a = this.armed;
    if (!a || a.fired) return;
    a.total += n;
    const mine = (a.perRequest.get(requestId) ?? 0) + n;
    a.perRequest.set(requestId, mine);
    const url = a.urls.get(requestId);
    let hit: CapExceeded | undefined;
    if (mine > a.caps.maxResponseBytes)
      hit = { kind: 'response', bytes: mine, limit: a.caps.maxResponseBytes, url };
    else if (a.total > a.caps.maxPageBytes)
      hit = { kind: 'page', bytes: a.total, limit: a.caps.maxPageBytes, url };
    if (hit) {
      a.fired = true;
      a.onExceeded(hit);
    }
  }
}
