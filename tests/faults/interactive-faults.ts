import { ledgerOf } from './fault-checks';
import type { FaultContext, FaultScenario, ScenarioResult } from './fault-scenario';
import type { ApiAnswer } from './fault-stack';
import type { ServiceName } from './service-process';
import { waitFor, withDeadline } from './wait-for';

const CREDITS = 20;

/**
 * One interactive request (the caller waits) whose worker is killed while the job is in flight
 * (`inFlight` resolves then), then started again. The caller must get an answer, and the charge
 * must be settled exactly once: 200 = charged once, no refund; an error = charged and refunded once.
 */
async function interactiveUnderKill(
  ctx: FaultContext,
  opts: {
    worker: ServiceName;
    path: string;
    body: Record<string, unknown>;
    reason: 'scrape' | 'extract';
    cost: number;
    inFlight: () => Promise<unknown>;
    /** How many times the work may have run (site fetches or model calls) given one crash. */
    runs: () => number;
  },
): Promise<ScenarioResult> {
  const { stack } = ctx;
  const account = await stack.account(CREDITS);
  const answer: Promise<ApiAnswer> = stack.api('POST', opts.path, account, opts.body);
  await opts.inFlight();
  const faultAt = Date.now();
  const worker = stack.service(opts.worker);
  await worker.kill();
  await worker.start();
  const notes: string[] = [];
  let res: ApiAnswer | null = null;
  try {
    res = await withDeadline(answer, 90_000, 'interactive answer');
  } catch (err) {
    notes.push(String(err instanceof Error ? err.message : err));
  }
  const recoverMs = res ? Date.now() - faultAt : null;
  const ledger = (await ledgerOf(stack.databaseUrl, account.accountId)).filter((l) =>
    l.reason.startsWith(opts.reason),
  );
  const charges = ledger.filter((l) => l.reason === opts.reason).length;
  const refunds = ledger.filter((l) => l.reason === `${opts.reason}_refund`).length;
  const ok = res?.status === 200;
  if (res && !ok) notes.push(`answered ${res.status} ${String(res.body.code)} (refunded ${refunds}×)`);
  if (charges !== 1) notes.push(`${charges} ${opts.reason} charges`);
  const runs = opts.runs();
  if (runs > 2) notes.push(`work ran ${runs}× for one crash`);
  return {
    terminal: res !== null,
    // An error answer with its refund is allowed by the contract ("answered or refunded").
    lost: res === null || (!ok && refunds !== 1) ? 1 : 0,
    runTwice: Math.max(0, charges - 1) + Math.max(0, refunds - (ok ? 0 : 1)) + (runs > 2 ? 1 : 0),
    recoverMs,
    expected: [{ account, balance: ok ? CREDITS - opts.cost : CREDITS }],
    notes,
  };
}

export const interactiveFaults: FaultScenario[] = [
  {
    name: 'SIGKILL scrape-worker mid-scrape',
    what:
      'kill -9 the scrape-worker while the site holds its fetch of a /v1/scrape page (1.5 s), start ' +
      'it again: the caller, still waiting, gets the page from the re-run job, billed once',
    run: (ctx) => {
      const key = '/page/3?run=scrape';
      ctx.stack.site.delayMs = 1_500;
      return interactiveUnderKill(ctx, {
        worker: 'scrape-worker',
        path: '/v1/scrape',
        body: { url: `${ctx.stack.site.url}${key}` },
        reason: 'scrape',
        cost: 1,
        inFlight: () => ctx.stack.site.when((r) => r.key === key, 30_000, 'scrape fetch'),
        runs: () => ctx.stack.site.hits(key),
      });
    },
  },
  {
    name: 'SIGKILL extract-worker mid-extract',
    what:
      'kill -9 the extract-worker while the fake model holds its answer (3 s), start it again: the ' +
      'caller gets the extraction from the re-run job, 5 credits charged once',
    llmDelayMs: 3_000,
    run: (ctx) => {
      const key = '/page/4?run=extract';
      const llm = ctx.stack.llm;
      if (!llm) throw new Error('no fake model');
      return interactiveUnderKill(ctx, {
        worker: 'extract-worker',
        path: '/v1/extract',
        body: { url: `${ctx.stack.site.url}${key}`, schema: { title: 'string' } },
        reason: 'extract',
        cost: 5,
        inFlight: () =>
          waitFor('model call in flight', () => (llm.requests.length > 0 ? true : undefined), 30_000, 20),
        runs: () => llm.requests.length,
      });
    },
  },
];
