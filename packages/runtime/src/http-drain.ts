import type { Server, ServerResponse } from 'node:http';

export interface HttpDrainLogger {
  info(o: object, m?: string): void;
  warn(o: object, m?: string): void;
}

export interface HttpDrainResult {
  /** Every request finished before the deadline. */
  drained: boolean;
  /** Requests still in flight at the deadline (their sockets were destroyed). */
  cut: number;
  ms: number;
}

export interface HttpDrainer {
  /** Requests whose response has not finished yet. */
  readonly inFlight: number;
  /**
   * Stop accepting connections, close idle keep-alive sockets at once (and each one that turns
   * idle), let in-flight requests finish for up to `deadlineMs`, then destroy what is left.
   * Safe to call more than once (one drain).
   */
  close(opts: { deadlineMs: number; logger?: HttpDrainLogger }): Promise<HttpDrainResult>;
}

/**
 * Graceful close of an HTTP server. Install it when the server starts: it tracks in-flight
 * responses so that, once draining, every response is sent with `Connection: close` and every
 * socket that turns idle is closed — `server.close()` alone leaves keep-alive sockets open until
 * their timeout, and `closeAllConnections()` cuts requests that are still being answered.
 */
export function httpDrainer(server: Server): HttpDrainer {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let closing: Promise<HttpDrainResult> | null = null;

  const closeIdleSoon = () => setImmediate(() => server.closeIdleConnections());
  // Prepended: runs before the app, so the header can still be set on a request that arrives
  // on a kept-alive socket during the drain.
  server.prependListener('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    if (draining && !res.headersSent) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight.delete(res);
      if (draining) closeIdleSoon();
    });
  });

  const drain = async (deadlineMs: number, logger?: HttpDrainLogger): Promise<HttpDrainResult> => {
    const started = Date.now();
    draining = true;
    const closed = new Promise<void>((resolve) => {
      server.close(() => resolve());
    });
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    server.closeIdleConnections();
    if (inFlight.size > 0) {
      logger?.info({ inFlight: inFlight.size, deadlineMs }, 'draining in-flight requests');
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(() => resolve('deadline'), deadlineMs);
    });
    const outcome = await Promise.race([closed.then(() => 'closed' as const), deadline]);
    clearTimeout(timer);
    let cut = 0;
    if (outcome === 'deadline') {
      cut = inFlight.size;
      server.closeAllConnections();
      await closed;
      logger?.warn(
        { cut, deadlineMs },
        'drain deadline passed; cut the requests still in flight (SHUTDOWN_DRAIN_MS)',
      );
    }
    const result = { drained: outcome === 'closed', cut, ms: Date.now() - started };
    if (result.drained) logger?.info({ ms: result.ms }, 'HTTP server drained');
    return result;
  };

  return {
    get inFlight() {
      return inFlight.size;
    },
    close(opts) {
      closing ??= drain(opts.deadlineMs, opts.logger);
      return closing;
    },
  };
}
