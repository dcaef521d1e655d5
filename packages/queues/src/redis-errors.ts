/**
 * Redis `error` events, logged without flooding: ioredis emits one per failed reconnect (several a
 * second during an outage) and BullMQ re-emits them from every Queue, QueueEvents and Worker. One
 * line per connection role per interval, carrying how many were suppressed since the last one;
 * when an ioredis connection is `ready` again after errors, one line says so with the total.
 * Only the message and code are logged — never the error object or a URL with its password.
 */
export interface RedisErrorLogger {
  error(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

/** An ioredis connection, or a BullMQ Queue / QueueEvents / Worker (they re-emit `error`). */
export interface ErrorEmitter {
  on(event: 'error', listener: (err: Error) => void): unknown;
}

export const REDIS_ERROR_LOG_INTERVAL_MS = 15_000;

interface RoleState {
  lastLoggedAt: number;
  suppressed: number;
  /** Errors since the connection was last ready (for the "restored" line). */
  sinceReady: number;
}

/** `redis://user:secret@host` → `redis://user:***@host`, wherever a URL appears in a message. */
export function redactRedisUrls(text: string): string {
  return text.replace(/\b(rediss?:\/\/[^\s:/@]*:)[^\s@/]*@/gi, '$1***@');
}

export class RedisErrorLog {
  private readonly roles = new Map<string, RoleState>();
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly logger: RedisErrorLogger | undefined,
    opts: { intervalMs?: number; now?: () => number } = {},
  ) {
    this.intervalMs = opts.intervalMs ?? REDIS_ERROR_LOG_INTERVAL_MS;
    this.now = opts.now ?? Date.now;
  }

  /** Count an error of `role`; log it unless this role logged less than `intervalMs` ago. */
  report(role: string, err: unknown): void {
    const now = this.now();
    let state = this.roles.get(role);
    if (!state) {
      state = { lastLoggedAt: Number.NEGATIVE_INFINITY, suppressed: 0, sinceReady: 0 };
      this.roles.set(role, state);
    }
    state.sinceReady += 1;
    if (now - state.lastLoggedAt < this.intervalMs) {
      state.suppressed += 1;
      return;
    }
    const suppressed = state.suppressed;
    state.lastLoggedAt = now;
    state.suppressed = 0;
    const e = err as { message?: unknown; code?: unknown } | null;
    const message = redactRedisUrls(typeof e?.message === 'string' ? e.message : String(err));
    this.logger?.error(
      {
        role,
        error: message,
        ...(typeof e?.code === 'string' ? { code: e.code } : {}),
        suppressed,
        nextLogInMs: this.intervalMs,
      },
      'redis error',
    );
  }

  /** The connection of `role` is ready again: say so once if it had errors. */
  ready(role: string): void {
    const state = this.roles.get(role);
    if (!state || state.sinceReady === 0) return;
    this.logger?.info({ role, errors: state.sinceReady }, 'redis connection ready again');
    state.sinceReady = 0;
    state.suppressed = 0;
    // The next outage is logged at once.
    state.lastLoggedAt = Number.NEGATIVE_INFINITY;
  }

  /**
   * Listen to `error` (and, on an ioredis connection, `ready`) of `emitter` under `role`. Also
   * what keeps an unhandled `error` from crashing the process.
   */
  watch<T extends ErrorEmitter>(emitter: T, role: string): T {
    emitter.on('error', (err) => this.report(role, err));
    const withReady = emitter as unknown as { on(event: 'ready', listener: () => void): unknown };
    if (isRedisClient(emitter)) withReady.on('ready', () => this.ready(role));
    return emitter;
  }
}

function isRedisClient(x: unknown): boolean {
  return typeof (x as { duplicate?: unknown }).duplicate === 'function' && 'status' in (x as object);
}
