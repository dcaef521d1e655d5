import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The probe server of a worker process (started by `runService` when HEALTH_PORT > 0; the gateway
 * has its own /healthz on PORT). Two answers, nothing else:
 *
 * - `GET /healthz` — readiness: 200 `{ ok: true }` once the service's `start()` resolved; 503
 *   while it is starting and from the first moment of its shutdown (so a rollout waits for a
 *   worker that really consumes, and a PodDisruptionBudget counts only those).
 * - `GET /livez` — liveness: 200 while the event loop turns (answering is the proof), also while
 *   starting and shutting down: a worker waiting for Redis or draining its jobs is alive, and a
 *   restart would not help it.
 *
 * Neither touches Redis or PostgreSQL: a store outage must not restart every worker at once
 * (they wait for Redis by design and pick up again on their own).
 */
export const HEALTH_PATHS = { readiness: '/healthz', liveness: '/livez' } as const;

export type HealthState = 'starting' | 'ready' | 'stopping';

export interface HealthServer {
  /** The port it listens on (the one asked for, or the one the system chose for 0 in tests). */
  readonly port: number;
  readonly state: HealthState;
  /** `start()` resolved: readiness answers 200. Ignored once stopping. */
  markReady(): void;
  /** Shutdown began: readiness answers 503 from now on (liveness stays 200). */
  markStopping(): void;
  close(): Promise<void>;
}

export interface HealthServerOptions {
  port: number;
  host?: string;
}

const json = (res: ServerResponse, status: number, body: object, head: boolean) => {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(head ? undefined : text);
};

/** Listen on `host:port` (default all IPv4 interfaces: the kubelet probes the pod's IP). */
export async function startHealthServer(opts: HealthServerOptions): Promise<HealthServer> {
  let state: HealthState = 'starting';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const method = req.method ?? 'GET';
    const head = method === 'HEAD';
    if (method !== 'GET' && !head) return json(res, 404, { ok: false, error: 'not found' }, head);
    if (path === HEALTH_PATHS.liveness) return json(res, 200, { ok: true }, head);
    if (path === HEALTH_PATHS.readiness) {
      return state === 'ready'
        ? json(res, 200, { ok: true }, head)
        : json(res, 503, { ok: false, state }, head);
    }
    return json(res, 404, { ok: false, error: 'not found' }, head);
  });
  // A probe is one small request: nothing may hold a socket open for long.
  server.requestTimeout = 5_000;
  server.headersTimeout = 5_000;
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    port,
    get state() {
      return state;
    },
    markReady() {
      if (state === 'starting') state = 'ready';
    },
    markStopping() {
      state = 'stopping';
    },
    close() {
      state = 'stopping';
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
