/**
 * The Firecrawl SDKs' `watcher()` / `crawlUrlAndWatch`: a WebSocket on the status URL of a crawl
 * or batch (`/firecrawl/v2/crawl/:id`, `/firecrawl/v2/batch/scrape/:id`, `/firecrawl/v1/crawl/:id`
 * — v1 serves batches there too, as its SDK watches them at that path). The SDKs send the API key
 * as the subprotocol (`new WebSocket(url, apiKey)`); `Authorization: Bearer` works too. Unknown
 * keys are a 401 and other accounts' ids a 404 before the upgrade.
 *
 * Messages (JSON text frames), as Firecrawl sends them:
 * - `{ type: "catchup", data: { status, completed, total, creditsUsed, expiresAt, data: [docs] } }`
 *   at once, with every document so far;
 * - `{ type: "document", data: doc }` for each page or item that finishes after that;
 * - at the end: v2 `{ type: "done", data: { status, … } }` for a completed job, the final status
 *   snapshot (`{ type: "status", data }`, which the v2 SDK reads as done) for a cancelled one, and
 *   `{ type: "error", error }` for a failed one; v1 puts the same `done` / `error` message in the
 *   close frame's reason, where its SDK reads it. The socket then closes (1000).
 *
 * The job is read from PostgreSQL every WATCH_POLL_MS per socket (the same reads as the status
 * routes); documents are de-duplicated by page or item id.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { NotFoundError, ServiceError } from '@wcs/errors';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AuthContext, GatewayDeps } from '../deps';
import { batchStatusOperation } from '../routes/batch.routes';
import { crawlStatusOperation } from '../routes/crawl.routes';
import {
  batchStatusOf,
  crawlStatusOf,
  expiresAtOf,
  type FirecrawlJobStatus,
  storedDocument,
} from './job-status.compat';

export const WATCH_POLL_MS = 500;
/** Documents read per query. */
const CHUNK = 200;
/** Crawl pages are listed in finish order; this many already sent are read again, in case a page
 * that finished earlier committed later. */
const CRAWL_OVERLAP = 50;
const PATH = /^\/firecrawl\/(v1|v2)\/(crawl|batch\/scrape)\/([^/?#]+)\/?(?:\?.*)?$/;

type Version = 'v1' | 'v2';
type Kind = 'crawl' | 'batch';

interface Snapshot {
  status: FirecrawlJobStatus;
  completed: number;
  total: number;
  creditsUsed: number;
  expiresAt: string;
  error?: string;
}

/** One read of the job: its status and the documents not sent yet (read after the status). */
type Reader = (sent: Set<string>) => Promise<{ snap: Snapshot; docs: Record<string, unknown>[] }>;

function crawlReader(deps: GatewayDeps, auth: AuthContext, id: string): Reader {
  return async (sent) => {
    const crawl = await crawlStatusOperation(deps, auth, id);
    const docs: Record<string, unknown>[] = [];
    if (crawl.completed > sent.size) {
      for (let skip = Math.max(0, sent.size - CRAWL_OVERLAP); skip < crawl.completed; skip += CHUNK) {
        const rows = await deps.crawls.listPages(crawl.crawlId, 'done', skip, CHUNK);
        for (const p of rows) {
          if (sent.has(p.pageId)) continue;
          sent.add(p.pageId);
          docs.push(storedDocument(p.result, { url: p.url, statusCode: p.statusCode }));
        }
        if (rows.length < CHUNK) break;
      }
    }
    const snap: Snapshot = {
      status: crawlStatusOf(crawl),
      completed: crawl.completed,
      total: crawl.discovered,
      creditsUsed: crawl.creditsUsed,
      expiresAt: expiresAtOf(crawl.createdAt, crawl.finishedAt),
      ...(crawl.error ? { error: crawl.error } : {}),
    };
    return { snap, docs };
  };
}

function batchReader(deps: GatewayDeps, auth: AuthContext, id: string): Reader {
  return async (sent) => {
    // Counters only first: the items are read when some finished since the last read.
    const head = await batchStatusOperation(deps, auth, id, { statuses: [], skip: 0, limit: 0 });
    const docs: Record<string, unknown>[] = [];
    // Done items are listed by position, not by finish order: read them all, send the new ones.
    for (let skip = 0; head.completed > sent.size && skip < head.completed; skip += CHUNK) {
      const page = await batchStatusOperation(deps, auth, id, { statuses: ['done'], skip, limit: CHUNK });
      for (const it of page.items) {
        if (sent.has(it.itemId)) continue;
        sent.add(it.itemId);
        docs.push(storedDocument(it.result, { url: it.url }));
      }
      if (page.items.length < CHUNK) break;
    }
    const snap: Snapshot = {
      status: batchStatusOf(head),
      completed: head.completed,
      total: head.total,
      creditsUsed: head.creditsUsed,
      expiresAt: expiresAtOf(head.createdAt, null),
    };
    return { snap, docs };
  };
}

/** The reader of the job the path names, checked once (404 for unknown and other accounts' ids). */
async function readerFor(
  deps: GatewayDeps,
  auth: AuthContext,
  version: Version,
  kind: Kind,
  id: string,
): Promise<Reader> {
  if (kind === 'batch') {
    await batchStatusOperation(deps, auth, id, { statuses: [], skip: 0, limit: 0 });
    return batchReader(deps, auth, id);
  }
  try {
    await crawlStatusOperation(deps, auth, id);
    return crawlReader(deps, auth, id);
  } catch (err) {
    // v1 watches batches at /v1/crawl/:id (FirecrawlAppV1.batchScrapeUrlsAndWatch).
    if (version !== 'v1' || !(err instanceof NotFoundError)) throw err;
    await batchStatusOperation(deps, auth, id, { statuses: [], skip: 0, limit: 0 });
    return batchReader(deps, auth, id);
  }
}

/** The API key: the first subprotocol (the SDKs), else `Authorization: Bearer`. */
function keyOf(req: IncomingMessage): string | undefined {
  const protocols = req.headers['sec-websocket-protocol'];
  const first = typeof protocols === 'string' ? protocols.split(',')[0]?.trim() : undefined;
  if (first) return first;
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** An HTTP answer on a socket that asked for an upgrade: `{ success: false, error, code }`. */
function refuse(socket: Duplex, status: number, code: string, error: string): void {
  const body = JSON.stringify({ success: false, error, code });
  const reason = status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A close reason holds at most 123 bytes: `{ type }` or `{ type, error }` with the error cut to fit. */
function closeReason(message: { type: string; error?: unknown }): string {
  let text = JSON.stringify(message);
  const error = String(message.error ?? '');
  for (let cut = error.length; Buffer.byteLength(text) > 123 && cut > 0; ) {
    cut = Math.floor(cut * 0.8);
    text = JSON.stringify({ type: message.type, error: `${error.slice(0, cut)}…` });
  }
  return Buffer.byteLength(text) <= 123 ? text : JSON.stringify({ type: message.type });
}

/** Stream one job to one socket until it ends, the socket closes or the gateway stops. */
function stream(ws: WebSocket, version: Version, read: Reader, onError: (err: unknown) => void): () => void {
  const sent = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const send = (m: Record<string, unknown>) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };
  const finish = (snap: Snapshot) => {
    const data = { success: true, ...snap, data: [] };
    const end: { type: string; [k: string]: unknown } =
      snap.status === 'failed'
        ? { type: 'error', error: snap.error ?? 'The job failed' }
        : snap.status === 'cancelled' && version === 'v1'
          ? { type: 'error', error: 'The job was cancelled' }
          : snap.status === 'cancelled'
            ? { type: 'status', data }
            : { type: 'done', data };
    if (version === 'v2') {
      send(end);
      ws.close(1000);
      // v1: the reason holds 123 bytes; its SDK takes `done` alone as completed.
    } else ws.close(1000, closeReason(end.type === 'error' ? end : { type: 'done' }));
  };
  const tick = async (first: boolean) => {
    if (stopped) return;
    try {
      const { snap, docs } = await read(sent);
      if (stopped) return;
      if (first) send({ type: 'catchup', data: { success: true, ...snap, data: docs } });
      else for (const doc of docs) send({ type: 'document', data: doc });
      if (snap.status !== 'scraping') return finish(snap);
    } catch (err) {
      onError(err);
      const message = err instanceof ServiceError ? err.message : 'Internal error';
      if (version === 'v2') {
        send({ type: 'error', error: message });
        ws.close(1011);
      } else ws.close(1011, closeReason({ type: 'error', error: message }));
      return;
    }
    timer = setTimeout(() => void tick(false), WATCH_POLL_MS);
  };
  ws.on('close', () => {
    stopped = true;
    clearTimeout(timer);
  });
  void tick(true);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

export interface JobWatch {
  /** Close every socket (1001, going away) and stop their reads: before the HTTP server drains. */
  close(): void;
}

/** Serve the Firecrawl watch WebSockets on the gateway's HTTP server (its `upgrade` requests). */
export function attachJobWatch(server: Server, deps: GatewayDeps): JobWatch {
  const wss = new WebSocketServer({
    noServer: true,
    // The SDKs offer the API key as their one subprotocol: agreeing to it completes the handshake.
    handleProtocols: (protocols) => protocols.values().next().value ?? false,
    maxPayload: 64 * 1024,
  });
  const stops = new Set<() => void>();
  let closing = false;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const m = PATH.exec(req.url ?? '');
    if (!m || closing) return refuse(socket, 404, 'NOT_FOUND', 'No WebSocket is served here');
    const version = m[1] as Version;
    const kind: Kind = m[2] === 'crawl' ? 'crawl' : 'batch';
    const id = decodeURIComponent(m[3] as string);
    void (async () => {
      const key = keyOf(req);
      const found = key ? await deps.apiKeys.verify(key) : null;
      if (!found) return refuse(socket, 401, 'UNAUTHORIZED', 'Invalid API key');
      const auth: AuthContext = { accountId: found.accountId, keyId: found.keyId, plan: found.plan };
      const read = await readerFor(deps, auth, version, kind, id);
      wss.handleUpgrade(req, socket, head, (ws) => {
        const stop = stream(ws, version, read, (err) =>
          deps.logger.warn({ err, id }, 'job watch: read failed; socket closed'),
        );
        stops.add(stop);
        ws.on('close', () => stops.delete(stop));
      });
    })().catch((err: unknown) => {
      if (err instanceof NotFoundError) return refuse(socket, 404, 'NOT_FOUND', err.message);
      deps.logger.warn({ err }, 'job watch: upgrade failed');
      refuse(socket, 500, 'INTERNAL', 'Internal error');
    });
  });
  return {
    close() {
      closing = true;
      for (const stop of stops) stop();
      for (const ws of wss.clients) ws.close(1001, 'server shutting down');
      // Sockets that do not answer the close in time are cut.
      setTimeout(() => {
        for (const ws of wss.clients) ws.terminate();
      }, 1_000).unref();
      wss.close();
    },
  };
}
