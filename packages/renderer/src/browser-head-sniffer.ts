/**
 * The first bytes of a page's main document, as they arrive. Binary served as HTML (a PNG, a ZIP)
 * would otherwise be laid out by Chromium as text — tens of seconds for a 1.6 MB image — before
 * `response.body()` can be sniffed after the load event. CDP `Network.streamResourceContent` makes
 * the document's `dataReceived` events carry their bytes; the first `SNIFF_WINDOW_BYTES` are handed
 * to `onHead` once, and streaming is used for HTML documents of the main frame only (other types
 * are sniffed from `response.body()` as before). What arrived before streaming was switched on (one
 * CDP round trip after the headers: often the whole body, from a fast server) comes back as
 * `bufferedData`, which the meter's session buffers for this (browser-byte-meter.ts). Best effort:
 * a body bigger than that buffer, all arrived before streaming, is sniffed from `response.body()`
 * after the load event — slow for a big binary, but still refused.
 */
import { HTML_TYPES, mimeTypeOf, SNIFF_WINDOW_BYTES } from '@wcs/net';
import type { CDPSession } from 'playwright-core';

export type HeadListener = (head: Uint8Array, contentType: string | undefined) => void;

interface Watch {
  requestId: string;
  contentType: string | undefined;
  chunks: Buffer[];
  size: number;
  done: boolean;
}

export class HeadSniffer {
  private listener: HeadListener | undefined;
  private watch: Watch | undefined;

  constructor(
    private readonly session: CDPSession,
    private readonly mainFrameId: string,
  ) {
    session.on('Network.responseReceived', (e) => {
      if (!this.listener || e.type !== 'Document' || e.frameId !== this.mainFrameId) return;
      const contentType = e.response.headers['content-type'] ?? e.response.headers['Content-Type'];
      if (!HTML_TYPES.has(mimeTypeOf(contentType) || 'text/html')) return;
      const watch: Watch = { requestId: e.requestId, contentType, chunks: [], size: 0, done: false };
      this.watch = watch;
      void session
        .send('Network.streamResourceContent', { requestId: e.requestId })
        .then((r) => this.add(watch, r.bufferedData))
        .catch(() => this.readBody(watch)); // finished already: the buffered body, at once
    });
    session.on('Network.dataReceived', (e) => {
      const w = this.watch;
      if (w && e.requestId === w.requestId && e.data) this.add(w, e.data);
    });
    session.on('Network.loadingFinished', (e) => {
      const w = this.watch;
      if (!w || e.requestId !== w.requestId) return;
      // Nothing heard yet: the whole body came before streaming was on, and the answer to
      // streamResourceContent (its bufferedData, or the error that makes us read the body) is
      // still out; the finished body is in the session's buffer now, so it is read at once too.
      if (w.size === 0) this.readBody(w);
      else this.flush(w);
    });
  }

  /** Sniff the next main document of this page (one render). */
  arm(listener: HeadListener): void {
    this.listener = listener;
    this.watch = undefined;
  }

  disarm(): void {
    this.listener = undefined;
    this.watch = undefined;
  }

  private add(w: Watch, base64: string): void {
    if (w.done || !base64) return;
    const chunk = Buffer.from(base64, 'base64');
    w.chunks.push(chunk);
    w.size += chunk.length;
    if (w.size >= SNIFF_WINDOW_BYTES) this.flush(w);
  }

  /**
   * The document finished loading before streaming could be switched on: its body, as this
   * session buffered it, is read now rather than after the load event (the renderer answers
   * before it starts laying the bytes out). Not buffered (bigger than the buffer, cached):
   * `response.body()` decides later.
   */
  private readBody(w: Watch): void {
    if (w.done || w !== this.watch) return;
    void this.session
      .send('Network.getResponseBody', { requestId: w.requestId })
      .then((r) => {
        const bytes = r.base64Encoded ? r.body : Buffer.from(r.body).toString('base64');
        this.add(w, bytes);
        this.flush(w);
      })
      .catch(() => undefined);
  }

  /** Hands the head to the listener once; nothing yet (all arrived before streaming) waits. */
  private flush(w: Watch): void {
    if (w.done || w !== this.watch || w.size === 0) return;
    w.done = true;
    this.listener?.(Buffer.concat(w.chunks).subarray(0, SNIFF_WINDOW_BYTES), w.contentType);
  }
}
