/**
 * One hostile cell = one case × one endpoint: call the service with a fresh URL of the case,
 * compare what came back with the documented outcome, the time with its budget and the credits
 * charged with "only for success". Pure measurement: the caller decides how to report.
 */
import {
  HOSTILE_MARKER,
  type HostileCase,
  type HostileOrigin,
  type HostileSite,
  PRIVATE_PROBE_TEXT,
} from '@wcs/testing';
import { type Api, type ApiAnswer, call, pollGet, str, warningOf } from './hostile-api';
import {
  ANSWER_SLACK_MS,
  alternativeOutcome,
  describeOutcome,
  type EngineMode,
  expectedOutcome,
  isSlowCase,
  type Outcome,
  SLOW_CASE_TIMEOUT_MS,
} from './hostile-expectations';

export const ENDPOINTS = ['scrape', 'browser', 'batch', 'crawl', 'map', 'extract', 'monitor'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/**
 * The stack's per-attempt timeouts. A batch item and a crawl page get two attempts within
 * 2 × their timeout (docs/reliability/job-budgets.md), so that is their budget here.
 */
const ITEM_TIMEOUT_MS = 15_000;
export const STACK_BUDGET_ENV = {
  BATCH_ITEM_TIMEOUT_MS: String(ITEM_TIMEOUT_MS),
  CRAWL_PAGE_TIMEOUT_MS: String(ITEM_TIMEOUT_MS),
  MONITOR_CHECK_TIMEOUT_MS: String(ITEM_TIMEOUT_MS),
};

/** Budgets (ms) per endpoint for a case that is not slow on purpose. */
export const BUDGET_MS: Record<Endpoint, number> = {
  scrape: 15_000,
  browser: 30_000,
  batch: 2 * ITEM_TIMEOUT_MS + 3_000,
  crawl: 2 * ITEM_TIMEOUT_MS + 5_000,
  map: 15_000,
  extract: 30_000,
  monitor: ITEM_TIMEOUT_MS + 10_000,
};

export interface CellResult {
  name: string;
  endpoint: Endpoint;
  expected: string;
  got: string;
  ms: number;
  budgetMs: number;
  credits: number;
  expectedCredits: number;
  pass: boolean;
  /** Why it failed, when it did (beyond got ≠ expected). */
  notes: string[];
}

export interface CellContext {
  site: HostileSite;
  /** A fresh account with credits, so each cell's balance delta is its own. */
  newAccount(): Promise<Api & { accountId: string }>;
  balance(accountId: string): Promise<number>;
}

function errorCode(a: ApiAnswer): string {
  return `${a.status} ${str(a.body.code) || '?'}`;
}

/** Content of a successful page must be the page's, not garbage or an empty shell. */
function contentCheck(name: HostileCase, markdown: string, notes: string[]): void {
  const want = name === 'private-connections' ? PRIVATE_PROBE_TEXT : HOSTILE_MARKER;
  if (name === 'app-shell') return;
  if (!markdown.includes(want)) notes.push(`content lacks "${want}"`);
}

function judge(
  r: Omit<CellResult, 'pass' | 'notes'> & { notes?: string[] },
  gotOutcome: boolean,
): CellResult {
  const notes = r.notes ?? [];
  // The budget is judged by the outcome (past it the answer is 504 TIMEOUT, or the poll for a
  // job's end runs out), not by a stopwatch: a busy machine is slow. `ms` is printed beside it.
  if (!gotOutcome) notes.push(`got ${r.got}, expected ${r.expected}`);
  if (r.credits !== r.expectedCredits) notes.push(`charged ${r.credits}, expected ${r.expectedCredits}`);
  return { ...r, notes, pass: notes.length === 0 };
}

function matches(outcome: Outcome, status: number, code: string, warning: boolean): boolean {
  if (!outcome.ok) return status === outcome.status && code === outcome.code;
  return status === 200 && (!outcome.warning || warning);
}

async function scrapeCell(
  ctx: CellContext,
  name: HostileCase,
  endpoint: 'scrape' | 'browser',
): Promise<CellResult> {
  const engine: EngineMode = endpoint === 'browser' ? 'browser' : 'fetch';
  const primary = expectedOutcome(name, engine);
  const budgetMs = isSlowCase(name) ? SLOW_CASE_TIMEOUT_MS + ANSWER_SLACK_MS : BUDGET_MS[endpoint];
  const timeout = isSlowCase(name) ? SLOW_CASE_TIMEOUT_MS : BUDGET_MS[endpoint];
  const acct = await ctx.newAccount();
  const before = await ctx.balance(acct.accountId);
  const udpBefore = ctx.site.privateListeners.udpPackets();
  const a = await call(acct, 'POST', '/v1/scrape', { url: ctx.site.caseUrl(name), engine, timeout });
  const credits = before - (await ctx.balance(acct.accountId));
  const warning = warningOf(a.body);
  const notes: string[] = [];
  const data = a.body.data as Record<string, unknown> | undefined;
  if (a.status === 200) contentCheck(name, str(data?.markdown), notes);
  if (name === 'private-connections') {
    const udp = ctx.site.privateListeners.udpPackets() - udpBefore;
    if (udp > 0) notes.push(`${udp} UDP packets reached ${'127.0.0.1'} (WebRTC)`);
  }
  const got = a.status === 200 ? (warning ? '200 +warning' : '200') : errorCode(a);
  const alternative = alternativeOutcome(name, engine);
  const outcome =
    alternative && matches(alternative, a.status, str(a.body.code), warning !== undefined)
      ? alternative
      : primary;
  return judge(
    {
      name,
      endpoint,
      expected: describeOutcome(outcome) + (outcome === alternative ? ' (renderer ceiling)' : ''),
      got,
      ms: a.ms,
      budgetMs,
      credits,
      expectedCredits: outcome.ok ? 1 : 0,
      notes,
    },
    matches(outcome, a.status, str(a.body.code), warning !== undefined),
  );
}

async function batchCell(ctx: CellContext, name: HostileCase): Promise<CellResult> {
  const outcome = expectedOutcome(name, 'auto');
  const budgetMs = BUDGET_MS.batch;
  const acct = await ctx.newAccount();
  const before = await ctx.balance(acct.accountId);
  const started = Date.now();
  const start = await call(acct, 'POST', '/v1/batch/scrape', { urls: [ctx.site.caseUrl(name)] });
  const id = str(start.body.id);
  const { answer } = await pollGet(acct, `/v1/batch/scrape/${id}`, (b) => b.status === 'done', budgetMs * 3);
  const ms = Date.now() - started;
  const credits = before - (await ctx.balance(acct.accountId));
  const item = ((answer.body.results as Array<Record<string, unknown>> | undefined) ?? [])[0];
  const notes: string[] = [];
  if (answer.body.creditsUsed !== credits)
    notes.push(`creditsUsed ${String(answer.body.creditsUsed)} ≠ ledger ${credits}`);
  let got = `batch ${str(answer.body.status) || start.status}`;
  let ok = false;
  if (item?.status === 'done') {
    const data = item.data as Record<string, unknown> | undefined;
    got = warningOf(item) ? 'done +warning' : 'done';
    contentCheck(name, str(data?.markdown), notes);
    ok = outcome.ok && (!outcome.warning || warningOf(item) !== undefined);
  } else if (item?.status === 'failed') {
    got = `failed ${str(item.code) || '?'}`;
    ok = !outcome.ok && item.code === outcome.code;
  }
  const expected = outcome.ok ? (outcome.warning ? 'done +warning' : 'done') : `failed ${outcome.code}`;
  return judge(
    {
      name,
      endpoint: 'batch',
      expected,
      got,
      ms,
      budgetMs,
      credits,
      expectedCredits: outcome.ok ? 1 : 0,
      notes,
    },
    ok,
  );
}

const CRAWL_TERMINAL = new Set(['done', 'failed']);

/** A crawl from the case's page (or from an origin's ordinary page for the robots/sitemap cases). */
export async function crawlCell(
  ctx: CellContext,
  name: HostileCase,
  origin: HostileOrigin = 'main',
): Promise<CellResult> {
  const outcome = origin === 'main' ? expectedOutcome(name, 'auto') : ({ ok: true, warning: false } as const);
  const budgetMs = BUDGET_MS.crawl;
  const acct = await ctx.newAccount();
  const before = await ctx.balance(acct.accountId);
  const started = Date.now();
  const start = await call(acct, 'POST', '/v1/crawl', {
    url: ctx.site.caseUrl(name, origin),
    maxPages: 3,
    maxDepth: 1,
  });
  const id = str(start.body.id);
  const { answer } = await pollGet(
    acct,
    `/v1/crawl/${id}`,
    (b) => CRAWL_TERMINAL.has(str(b.status)),
    budgetMs * 3,
  );
  const ms = Date.now() - started;
  // A crawl still running past three budgets is cancelled, so it cannot weigh on the next cells.
  if (!CRAWL_TERMINAL.has(str(answer.body.status)) && id) await call(acct, 'DELETE', `/v1/crawl/${id}`);
  const credits = before - (await ctx.balance(acct.accountId));
  const b = answer.body;
  const failedPages = (b.failedPages as Array<Record<string, unknown>> | undefined) ?? [];
  const status = str(b.status) || `${start.status} ${str(start.body.code)}`;
  const got = status === 'failed' ? `failed ${str(failedPages[0]?.code) || str(b.stopReason)}` : status;
  const expected = outcome.ok ? 'done' : `failed ${outcome.code}`;
  const notes: string[] = [];
  if (b.creditsUsed !== credits) notes.push(`creditsUsed ${String(b.creditsUsed)} ≠ ledger ${credits}`);
  const completed = typeof b.completed === 'number' ? b.completed : -1;
  return judge(
    {
      name: origin === 'main' ? name : origin,
      endpoint: 'crawl',
      expected,
      got,
      ms,
      budgetMs,
      credits,
      expectedCredits: outcome.ok ? Math.max(1, completed) : 0,
      notes,
    },
    outcome.ok ? status === 'done' && completed >= 1 : got === expected,
  );
}

export async function mapCell(
  ctx: CellContext,
  name: HostileCase,
  origin: HostileOrigin = 'main',
): Promise<CellResult> {
  const outcome = origin === 'main' ? expectedOutcome(name, 'auto') : ({ ok: true, warning: false } as const);
  // A map never has to warn about a heavy start page: its links are what it is for.
  const mapOutcome: Outcome = outcome.ok ? { ok: true, warning: false } : outcome;
  const budgetMs = BUDGET_MS.map;
  const acct = await ctx.newAccount();
  const before = await ctx.balance(acct.accountId);
  const a = await call(acct, 'POST', '/v1/map', { url: ctx.site.caseUrl(name, origin), timeout: budgetMs });
  const credits = before - (await ctx.balance(acct.accountId));
  const total = typeof a.body.total === 'number' ? a.body.total : 0;
  const got = a.status === 200 ? `200 (${total} links)` : errorCode(a);
  const notes: string[] = [];
  if (a.status === 200 && total < 1) notes.push('no links');
  return judge(
    {
      name: origin === 'main' ? name : origin,
      endpoint: 'map',
      expected: describeOutcome(mapOutcome),
      got,
      ms: a.ms,
      budgetMs: budgetMs + ANSWER_SLACK_MS,
      credits,
      expectedCredits: mapOutcome.ok ? 1 : 0,
      notes,
    },
    matches(mapOutcome, a.status, str(a.body.code), false),
  );
}

async function extractCell(ctx: CellContext, name: HostileCase): Promise<CellResult> {
  const outcome = expectedOutcome(name, 'auto');
  const extractOutcome: Outcome = outcome.ok ? { ok: true, warning: false } : outcome;
  const slow = isSlowCase(name);
  const timeout = slow ? SLOW_CASE_TIMEOUT_MS : BUDGET_MS.extract;
  const budgetMs = timeout + ANSWER_SLACK_MS;
  const acct = await ctx.newAccount();
  const before = await ctx.balance(acct.accountId);
  const a = await call(acct, 'POST', '/v1/extract', {
    url: ctx.site.caseUrl(name),
    schema: { title: 'string' },
    timeout,
  });
  const credits = before - (await ctx.balance(acct.accountId));
  const got = a.status === 200 ? '200' : errorCode(a);
  return judge(
    {
      name,
      endpoint: 'extract',
      expected: describeOutcome(extractOutcome),
      got,
      ms: a.ms,
      budgetMs,
      credits,
      expectedCredits: extractOutcome.ok ? 5 : 0,
    },
    matches(extractOutcome, a.status, str(a.body.code), false),
  );
}

/** Monitor: created (201), its first check runs at once and ends as documented. */
async function monitorCell(ctx: CellContext, name: HostileCase): Promise<CellResult> {
  const outcome = expectedOutcome(name, 'auto');
  const budgetMs = BUDGET_MS.monitor;
  const acct = await ctx.newAccount();
  const before = await ctx.balance(acct.accountId);
  const started = Date.now();
  const created = await call(acct, 'POST', '/v1/monitor', {
    url: ctx.site.caseUrl(name),
    interval: 'hourly',
  });
  const data = created.body.data as Record<string, unknown> | undefined;
  const id = str(data?.id);
  const notes: string[] = [];
  let got = `${created.status} ${str(created.body.code)}`;
  let ok = false;
  if (created.status === 201 && id) {
    const hasCheck = (b: Record<string, unknown>) =>
      (((b.data as Record<string, unknown> | undefined)?.checks as unknown[] | undefined) ?? []).length > 0;
    const { answer } = await pollGet(acct, `/v1/monitor/${id}`, hasCheck, budgetMs * 2, 500);
    const d = answer.body.data as Record<string, unknown> | undefined;
    const check = ((d?.checks as Array<Record<string, unknown>> | undefined) ?? [])[0];
    if (!check) got = 'no check';
    else if (typeof check.code === 'string') got = `check ${check.code}`;
    else got = typeof check.hash === 'string' ? 'check ok' : 'check ?';
    if (d?.status !== 'active') notes.push(`monitor is ${String(d?.status)}, expected active`);
    ok = outcome.ok ? got === 'check ok' : got === `check ${outcome.code}`;
    await call(acct, 'DELETE', `/v1/monitor/${id}`);
  }
  const ms = Date.now() - started;
  const credits = before - (await ctx.balance(acct.accountId));
  return judge(
    {
      name,
      endpoint: 'monitor',
      expected: outcome.ok ? 'check ok' : `check ${outcome.code}`,
      got,
      ms,
      budgetMs,
      credits,
      expectedCredits: outcome.ok ? 1 : 0,
      notes,
    },
    ok,
  );
}

/**
 * `n` browser scrapes of the case at once (the issue: "four such pages at once would take the
 * machine down"): every one must answer as documented within the budget; the runner's memory
 * sample of the cell is the peak of all of them together.
 */
export async function concurrentBrowserCell(
  ctx: CellContext,
  name: HostileCase,
  n: number,
): Promise<CellResult> {
  const results = await Promise.all(Array.from({ length: n }, () => scrapeCell(ctx, name, 'browser')));
  const tally = new Map<string, number>();
  for (const r of results) tally.set(r.got, (tally.get(r.got) ?? 0) + 1);
  const first = results[0] as CellResult;
  return {
    name: `${name} ×${n}`,
    endpoint: 'browser',
    expected: `${n}× ${first.expected}`,
    got: [...tally].map(([got, count]) => `${count}× ${got}`).join(', '),
    ms: Math.max(...results.map((r) => r.ms)),
    budgetMs: first.budgetMs,
    credits: results.reduce((sum, r) => sum + r.credits, 0),
    expectedCredits: results.reduce((sum, r) => sum + r.expectedCredits, 0),
    pass: results.every((r) => r.pass),
    notes: [...new Set(results.flatMap((r) => r.notes))],
  };
}

export function runCell(ctx: CellContext, name: HostileCase, endpoint: Endpoint): Promise<CellResult> {
  switch (endpoint) {
    case 'scrape':
    case 'browser':
      return scrapeCell(ctx, name, endpoint);
    case 'batch':
      return batchCell(ctx, name);
    case 'crawl':
      return crawlCell(ctx, name);
    case 'map':
      return mapCell(ctx, name);
    case 'extract':
      return extractCell(ctx, name);
    case 'monitor':
      return monitorCell(ctx, name);
  }
}
