/**
 * The Prisma CLI's wasm schema engine leaves ~10 s timers armed after `migrate deploy` has finished,
 * so the process lingers. Called only from prisma.config.ts (the CLI process, never the app): long
 * timers are unref'd, so they no longer keep a finished CLI alive; open sockets still do.
 */
export function unrefLongTimers(minMs = 2_000): void {
  const g = globalThis as { __wcsTimersPatched?: boolean };
  if (g.__wcsTimersPatched) return;
  g.__wcsTimersPatched = true;
  const original = globalThis.setTimeout;
  const patched = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const t = original(fn, ms, ...args);
    if ((ms ?? 0) >= minMs) t.unref();
    return t;
  };
  globalThis.setTimeout = Object.assign(patched, original) as typeof setTimeout;
}
