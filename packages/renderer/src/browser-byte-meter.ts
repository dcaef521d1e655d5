/**
 * Counts the decoded bytes a page receives while they arrive (CDP `Network.dataReceived` carries
 * the decoded chunk length, so gzip/brotli bombs count at their inflated size) and reports the
 * first chunk past a cap: per response (`maxResponseBytes`) and per render (`maxPageBytes`, every
 * response, iframe and WebSocket frame summed). One meter per pooled page, armed per render.
 */
import type { CDPSession, Page } from 'playwright-core';

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

  private constructor(private readonly session: CDPSession) {
    session.on('Network.requestWillBeSent', (e) => this.armed?.urls.set(e.requestId, e.request.url));
    session.on('Network.dataReceived', (e) => this.add(e.requestId, e.dataLength));
    session.on('Network.webSocketFrameReceived', (e) =>
      this.add(`ws:${e.requestId}`, e.response.payloadData.length),
    );
  }

  /** Attaches to a page's renderer; Network buffers kept tiny, this session never reads bodies. */
  static async attach(page: Page): Promise<ByteMeter> {
    const session = await page.context().newCDPSession(page);
    await session.send('Network.enable', { maxTotalBufferSize: 1024, maxResourceBufferSize: 1024 });
    return new ByteMeter(session);
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
  }

  /** A full GC in the page's renderer (after a render, so its garbage does not stay resident). */
  async collectGarbage(): Promise<void> {
    await this.session.send('HeapProfiler.collectGarbage').catch(() => undefined);
  }

  async detach(): Promise<void> {
    this.armed = undefined;
    await this.session.detach().catch(() => undefined);
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
