import type { OwnedPostgres } from './fault-databases';
import type { SiteRequest } from './fault-sites';
import type { Account, FaultStack } from './fault-stack';
import type { PrivateRedis } from './private-redis';

export interface ScenarioResult {
  /** Every job the fault touched reached a terminal state (done/failed/answered). */
  terminal: boolean;
  /** Units of work that did not end done (items, pages, the interactive answer, the webhook). */
  lost: number;
  /** Units of work done more than the fault allows (fetched/sent/billed again, not in flight). */
  runTwice: number;
  /** Of `runTwice`: charge or refund rows beyond one per reference (when the scenario counts them apart). */
  billedTwice?: number;
  /** From the fault's injection to everything terminal. */
  recoverMs: number | null;
  /** Balances the outcome implies (checked against PostgreSQL by the runner). */
  expected: Array<{ account: Account; balance: number }>;
  notes: string[];
}

export interface FaultContext {
  stack: FaultStack;
  redis: PrivateRedis;
  /** Only for faults with `ownPostgres`: the embedded server the stack runs against. */
  postgres: OwnedPostgres | null;
  /** The stack's standing monitor (hourly = 3 s, webhook to the receiver), created before the fault. */
  monitor: { account: Account; monitorId: string };
}

export interface FaultScenario {
  name: string;
  /** What is done, where, and what it proves (printed with --list and in docs/reliability/faults.md). */
  what: string;
  ownPostgres?: boolean;
  /** The fake model's answer delay (extract: keeps the model call in flight). */
  llmDelayMs?: number;
  run(ctx: FaultContext): Promise<ScenarioResult>;
}

/** Path + query of each URL: the site's request keys. */
export function keysOf(urls: string[]): string[] {
  return urls.map((u) => {
    const x = new URL(u);
    return `${x.pathname}${x.search}`;
  });
}

/**
 * Fetches beyond one per URL, except one re-fetch of a URL whose work was in flight while the fault
 * happened — its request unanswered, or its row `running` — the only work a crash may repeat.
 */
export function extraFetches(
  requests: SiteRequest[],
  keys: string[],
  inFlight: Set<string>,
  faultAt?: number,
): string[] {
  const over: string[] = [];
  for (const key of keys) {
    const seen = requests.filter((r) => r.key === key);
    if (seen.length <= (inFlight.has(key) ? 2 : 1)) continue;
    // Who fetched it and when, from the fault on: what a failure's note needs to be read later.
    const when = faultAt === undefined ? [] : seen.map((r) => `${r.from ?? 'site'} ${r.at - faultAt} ms`);
    over.push(`${key} fetched ${seen.length}×${when.length ? ` (${when.join(', ')})` : ''}`);
  }
  return over;
}
