/**
 * Shared pieces of the dashboard browser tests (docs/dashboard/contract.md is what they assert):
 * one stack (gateway + every worker) and one Chromium per test file, sign-in, screenshots, axe,
 * Bearer API calls, direct database reads/writes and DOM polling helpers.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { createDb, type Db } from '@wcs/db';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { pollUntil, type Stack, startStack, TEST_DATABASE_URL } from '../harness';
import { launchChromium } from './browser';

/** hourly = 2 s for monitors in these files (as in monitor.e2e.test.ts). */
export const MONITOR_INTERVAL_MS = 2_000;
export const SCREENSHOT_DIR = path.resolve(__dirname, '../../../.data/dashboard-screenshots');
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 812 };

export interface DashboardFixture {
  stack: Stack;
  browser: Browser;
  db: Db;
  close(): Promise<void>;
}

export async function startDashboard(): Promise<DashboardFixture> {
  const stack = await startStack({
    crawlWorker: true,
    monitorScheduler: true,
    webhookDispatcher: true,
    env: {
      MONITOR_INTERVAL_SCALE: String(MONITOR_INTERVAL_MS / 3_600_000),
      MONITOR_RESUME_SWEEP_MS: '300',
      WORKER_CONCURRENCY: '4',
      WEBHOOK_TIMEOUT_MS: '3000',
      CRAWL_PAGE_TIMEOUT_MS: '5000',
    },
  });
  const browser = await launchChromium();
  const db = createDb(TEST_DATABASE_URL, { poolSize: 2 });
  return {
    stack,
    browser,
    db,
    async close() {
      await browser.close();
      await db.close();
      await stack.close();
    },
  };
}

/** A fresh context (own cookies) at desktop size, with a page. */
export async function newPage(
  fx: DashboardFixture,
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await fx.browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  return { context, page };
}

export const nav = (page: Page): Locator => page.getByRole('navigation', { name: 'Dashboard' });

export async function signIn(fx: DashboardFixture, page: Page, apiKey: string): Promise<void> {
  await page.goto(`${fx.stack.url}/dashboard`);
  await page.getByLabel('API key', { exact: true }).fill(apiKey);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await nav(page)
    .waitFor({ state: 'visible', timeout: 20_000 })
    .catch(async (err: unknown) => {
      // Say what the page shows instead (an alert, the form again…), not just "timeout".
      const shown =
        (await page
          .locator('body')
          .textContent()
          .catch(() => null)) ?? '';
      throw new Error(`sign-in did not reach the nav: ${String(err)}\npage text: ${shown.slice(0, 500)}`);
    });
}

/**
 * Load `/dashboard#/<route>` as a fresh document (about:blank first, so a hash-only change never
 * leaves the previous view's elements around to satisfy the next wait) and wait for the nav.
 */
export async function openRoute(fx: DashboardFixture, page: Page, route: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${fx.stack.url}/dashboard#/${route}`);
  await nav(page).waitFor({ state: 'visible' });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** axe-core on the current page: no violation of impact serious or critical; one <h1> per view. */
export async function axeCheck(page: Page, label: string): Promise<void> {
  const h1 = await page.locator('h1').count();
  if (h1 !== 1) throw new Error(`${label}: ${h1} <h1> elements (the contract: each view has one)`);
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length > 0) {
    const lines = bad.map(
      (v) =>
        `- [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes
          .slice(0, 5)
          .map((n) => `    at ${JSON.stringify(n.target)}`)
          .join('\n')}`,
    );
    throw new Error(`axe on ${label}: ${bad.length} serious/critical violation(s)\n${lines.join('\n')}`);
  }
}

export interface ApiResult<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** A public-API call with `Authorization: Bearer <key>` (what a script or SDK does). */
export async function api<T = Record<string, unknown>>(
  fx: DashboardFixture,
  apiKey: string,
  method: string,
  pathAndQuery: string,
  body?: unknown,
): Promise<ApiResult<T>> {
  const res = await fetch(`${fx.stack.url}${pathAndQuery}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (CSV, HTML): the raw text is the body
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export interface DbLedgerRow {
  id: string;
  reason: string;
  amount: number;
  reference: string | null;
  balanceAfter: number;
  createdAt: Date;
}

/** The account's ledger straight from credit_ledger, newest first (the API's order). */
export async function dbLedger(fx: DashboardFixture, accountId: string): Promise<DbLedgerRow[]> {
  const rows = await fx.db.prisma.creditLedger.findMany({
    where: { accountId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return rows.map((r) => ({
    id: String(r.id),
    reason: r.reason,
    amount: r.amount,
    reference: r.reference,
    balanceAfter: r.balanceAfter,
    createdAt: r.createdAt,
  }));
}

export async function dbBalance(fx: DashboardFixture, accountId: string): Promise<number> {
  const a = await fx.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } });
  return a.balance;
}

/**
 * Append ledger rows (oldest first) with balance_after running on from the account's balance, and
 * move accounts.balance to the last balance_after: the ledger keeps summing to the balance.
 */
export async function seedLedger(
  fx: DashboardFixture,
  accountId: string,
  rows: Array<{ reason: string; amount: number; reference: string; createdAt: Date }>,
): Promise<void> {
  const sorted = [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  let balance = await dbBalance(fx, accountId);
  const data = sorted.map((r) => {
    balance += r.amount;
    if (balance < 0) throw new Error(`seed would make the balance negative at ${r.reference}`);
    return { accountId, ...r, balanceAfter: balance };
  });
  await fx.db.prisma.$transaction([
    fx.db.prisma.creditLedger.createMany({ data }),
    fx.db.prisma.account.update({ where: { id: accountId }, data: { balance } }),
  ]);
}

/** Poll a locator's attribute until `accept` says yes; returns the accepted value. */
export function waitForAttr(
  locator: Locator,
  name: string,
  accept: (v: string) => boolean,
  timeoutMs = 20_000,
): Promise<string> {
  return pollUntil(
    async () => {
      const v = await locator.getAttribute(name, { timeout: 1_000 });
      return v !== null && accept(v) ? v : undefined;
    },
    timeoutMs,
    100,
  );
}

/** Poll a locator's text until `accept` says yes; returns the accepted text. */
export function waitForText(
  locator: Locator,
  accept: (t: string) => boolean,
  timeoutMs = 20_000,
): Promise<string> {
  return pollUntil(
    async () => {
      const t = (await locator.textContent({ timeout: 1_000 })) ?? '';
      return accept(t) ? t : undefined;
    },
    timeoutMs,
    100,
  );
}

/** The integer in a formatted number ("1,234" → 1234, "−5" → -5). */
export function parseNumber(text: string): number {
  const cleaned = text.replace(/[\u2212\u2013]/g, '-').replace(/[^0-9-]/g, '');
  const n = Number(cleaned);
  if (cleaned === '' || !Number.isFinite(n)) throw new Error(`not a number: ${JSON.stringify(text)}`);
  return n;
}

/*
 * The tests compile without the DOM lib (like the renderer's page scripts); this is the little of
 * an element the row helpers below touch inside Chromium.
 */
interface DomElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

/** Texts of every cell (th and td) of each row matched by `rows`. */
export function rowCells(rows: Locator): Promise<string[][]> {
  return rows.evaluateAll((trs: DomElement[]) =>
    trs.map((tr) => Array.from(tr.querySelectorAll('th,td')).map((c) => (c.textContent ?? '').trim())),
  );
}

/** An attribute of each row matched by `rows`, in document order. */
export function rowAttrs(rows: Locator, name: string): Promise<string[]> {
  return rows.evaluateAll((els: DomElement[], n: string) => els.map((el) => el.getAttribute(n) ?? ''), name);
}

/** The value of a JavaScript expression evaluated in the page (a string: see DomElement). */
export function pageValue<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate<T>(expression);
}

/** A locator's text content ('' when it has none). */
export async function text(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? '';
}
