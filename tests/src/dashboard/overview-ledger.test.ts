/**
 * Overview and ledger views against a seeded ledger: every number on the page is recomputed here
 * from the credit_ledger rows (per UTC day, per operation, as docs/dashboard/contract.md defines).
 */
import { readFileSync } from 'node:fs';
import { PLANS } from '@wcs/db';
import type { Locator, Page } from 'playwright-core';
import { createTestAccount, pollUntil, type TestAccount } from '../harness';
import {
  api,
  axeCheck,
  type DashboardFixture,
  type DbLedgerRow,
  dbBalance,
  dbLedger,
  nav,
  newPage,
  PHONE,
  pageValue,
  parseNumber,
  rowAttrs,
  rowCells,
  screenshot,
  seedLedger,
  signIn,
  startDashboard,
  text,
  waitForAttr,
} from './dashboard-helpers';
import { type DashboardSite, startDashboardSite } from './dashboard-sites';

jest.setTimeout(120_000);

const DAY_MS = 86_400_000;
const OPS = ['scrape', 'batch', 'crawl', 'map', 'search', 'extract', 'monitor'] as const;
type Op = (typeof OPS)[number];
const OP_OF: Record<string, Op> = {
  scrape: 'scrape',
  scrape_refund: 'scrape',
  batch: 'batch',
  batch_refund: 'batch',
  crawl: 'crawl',
  crawl_refund: 'crawl',
  map: 'map',
  map_refund: 'map',
  search: 'search',
  search_refund: 'search',
  extract: 'extract',
  extract_refund: 'extract',
  monitor_check: 'monitor',
  monitor_judge: 'monitor',
};
type DayUsage = { date: string; total: number } & Record<Op, number>;

const midnightUtc = (t: number): number => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
};
const isoDate = (t: number): string => new Date(t).toISOString().slice(0, 10);

/** The contract's usage: one entry per UTC day (oldest first, today last), −(sum of amounts). */
function usageFromLedger(rows: DbLedgerRow[], days: number, now: number): DayUsage[] {
  const today = midnightUtc(now);
  const out: DayUsage[] = [];
  const byDate = new Map<string, DayUsage>();
  for (let i = days - 1; i >= 0; i--) {
    const day: DayUsage = { date: isoDate(today - i * DAY_MS), total: 0, ...zeroOps() };
    out.push(day);
    byDate.set(day.date, day);
  }
  for (const r of rows) {
    const op = OP_OF[r.reason];
    const day = byDate.get(isoDate(r.createdAt.getTime()));
    if (!op || !day) continue;
    day[op] -= r.amount;
    day.total -= r.amount;
  }
  return out;
}

function zeroOps(): Record<Op, number> {
  return { scrape: 0, batch: 0, crawl: 0, map: 0, search: 0, extract: 0, monitor: 0 };
}

/** ~150 rows over 45 days across every reason, with rows either side of a UTC midnight and of the 30-day edge. */
function seedRows(
  now: number,
): Array<{ reason: string; amount: number; reference: string; createdAt: Date }> {
  const today = midnightUtc(now);
  const at = (daysAgo: number, ms: number): Date => new Date(today - daysAgo * DAY_MS + ms);
  const rows: Array<{ reason: string; amount: number; reference: string; createdAt: Date }> = [];
  const add = (reason: string, amount: number, createdAt: Date): void => {
    rows.push({ reason, amount, createdAt, reference: `seed-${rows.length + 1}-${reason}` });
  };
  add('grant', 5000, at(45, 3_600_000));
  add('monthly', 100, at(31, 7_200_000));
  add('scrape', -7, at(30, 3_600_000)); // day −30: just outside the 30 days
  add('crawl', -4, at(29, 0)); // the first millisecond inside them
  for (let d = 28; d >= 1; d--) {
    add('scrape', -(1 + (d % 3)), at(d, 1_000_000));
    add('scrape', -1, at(d, 2_000_000));
    add('scrape', -1, at(d, 3_000_000));
    if (d % 4 === 0) add('scrape_refund', 1, at(d, 3_500_000));
    if (d % 5 === 0) add('batch', -10, at(d, 4_000_000));
    if (d % 5 === 0) add('batch_refund', 2, at(d, 4_100_000));
    if (d % 6 === 0) add('map', -1, at(d, 4_200_000));
    if (d % 7 === 0) add('search', -3, at(d, 4_300_000));
    if (d % 7 === 0) add('search_refund', 1, at(d, 4_400_000));
    if (d % 3 === 0) add('extract', -5, at(d, 4_500_000));
    if (d % 9 === 0) add('extract_refund', 2, at(d, 4_600_000));
    if (d % 2 === 0) add('monitor_check', -1, at(d, 4_700_000));
    if (d % 8 === 0) add('crawl', -6, at(d, 4_800_000));
    if (d % 8 === 0) add('crawl_refund', 1, at(d, 4_900_000));
  }
  add('map', -2, at(2, -1)); // last millisecond of day −3
  add('map', -3, at(2, 0)); // first of day −2
  add('topup', 200, at(10, 5_000_000));
  add('adjustment', -5, at(8, 5_000_000));
  add('scrape', -2, new Date(now - 120_000));
  add('monitor_check', -1, new Date(now - 60_000));
  return rows;
}

let fx: DashboardFixture;
let site: DashboardSite;
let acct: TestAccount;
let page: Page;

beforeAll(async () => {
  [fx, site] = await Promise.all([startDashboard(), startDashboardSite()]);
  acct = await createTestAccount({ credits: 0 });
  await seedLedger(fx, acct.accountId, seedRows(Date.now()));
  page = (await newPage(fx)).page;
  await signIn(fx, page, acct.apiKey);
});
afterAll(async () => {
  await fx?.close();
  await site?.close();
});

const stat = (name: string): Locator => page.getByTestId(name);
const numberAttr = async (l: Locator): Promise<number> =>
  Number(await waitForAttr(l, 'data-value', (v) => v !== ''));

describe('overview', () => {
  it('shows the balance, plan, 30-day usage, chart and usage table computed from the ledger rows', async () => {
    const now = Date.now();
    const ledger = await dbLedger(fx, acct.accountId);
    const balance = await dbBalance(fx, acct.accountId);
    // The seed kept the ledger consistent: newest balance_after = accounts.balance = sum of amounts.
    expect(ledger[0]?.balanceAfter).toBe(balance);
    expect(ledger.reduce((s, r) => s + r.amount, 0)).toBe(balance);
    const usage = usageFromLedger(ledger, 30, now);
    const used30 = usage.reduce((s, d) => s + d.total, 0);
    expect(used30).toBeGreaterThan(0);

    // The endpoints first (the page only draws what they say).
    const apiUsage = await api<{ data: { days: DayUsage[]; totals: Record<string, number> } }>(
      fx,
      acct.apiKey,
      'GET',
      '/v1/usage?days=30',
    );
    expect(apiUsage.status).toBe(200);
    expect(apiUsage.body.data.days).toEqual(usage);
    expect(apiUsage.body.data.totals.total).toBe(used30);
    const account = await api<{ data: { balance: number; usedLast30Days: number; plan: { id: string } } }>(
      fx,
      acct.apiKey,
      'GET',
      '/v1/account',
    );
    expect(account.body.data).toMatchObject({ balance, usedLast30Days: used30, plan: { id: 'free' } });

    await nav(page).getByRole('link', { name: 'Overview', exact: true }).click();
    expect(await numberAttr(stat('balance'))).toBe(balance);
    expect(parseNumber(await text(stat('balance')))).toBe(balance);
    expect(await numberAttr(stat('used-30d'))).toBe(used30);
    expect(parseNumber(await text(stat('used-30d')))).toBe(used30);
    expect(await stat('plan').getAttribute('data-value')).toBe('free');
    expect(await numberAttr(stat('monthly-credits'))).toBe(PLANS.free.monthlyCredits);
    const remaining = await numberAttr(stat('rate-limit'));
    expect(Number.isInteger(remaining) && remaining >= 0 && remaining <= 1000).toBe(true);
    await page.locator('[data-testid="usage-chart"] canvas').first().waitFor({ state: 'visible' });

    await page.locator('details', { hasText: 'Usage as a table' }).locator('summary').first().click();
    const rows = page.getByTestId('usage-table').locator('tr[data-date]');
    await rows.first().waitFor({ state: 'visible' });
    const withUsage = usage.filter((d) => OPS.some((op) => d[op] !== 0));
    expect(await rowAttrs(rows, 'data-date')).toEqual(withUsage.map((d) => d.date));
    const shown = (await rowCells(rows)).map((cells) => cells.slice(-8).map(parseNumber));
    expect(shown).toEqual(withUsage.map((d) => [...OPS.map((op) => d[op]), d.total]));
    await axeCheck(page, 'overview');
    await screenshot(page, 'overview');
  });

  it('a scrape through the API lowers the shown balance by 1 after a reload', async () => {
    const before = await numberAttr(stat('balance'));
    const res = await api(fx, acct.apiKey, 'POST', '/v1/scrape', { url: `${site.url}/page/1` });
    expect(res.status).toBe(200);
    await page.reload();
    expect(await numberAttr(stat('balance'))).toBe(before - 1);
    expect(await dbBalance(fx, acct.accountId)).toBe(before - 1);
  });

  it('at 375 px wide: no horizontal overflow, no serious axe violation', async () => {
    const { context, page: phone } = await newPage(fx, PHONE);
    await signIn(fx, phone, acct.apiKey);
    await phone.getByTestId('balance').waitFor({ state: 'visible' });
    await phone.locator('[data-testid="usage-chart"] canvas').first().waitFor({ state: 'visible' });
    const width = await pageValue<number>(phone, 'document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(PHONE.width + 1);
    await axeCheck(phone, 'overview (phone)');
    await screenshot(phone, 'phone-overview');
    await context.close();
  });
});

describe('ledger', () => {
  const table = (): Locator => page.getByTestId('ledger-table');
  const rows = (): Locator => table().locator('tr[data-id]');
  /** Wait until the table shows exactly `ids` (in order). */
  const waitForIds = (ids: string[]): Promise<string[]> =>
    pollUntil(async () => {
      const shown = await rowAttrs(rows(), 'data-id');
      return JSON.stringify(shown) === JSON.stringify(ids) ? shown : undefined;
    }, 20_000);

  it('shows the DB rows newest first, pages with Older/Newer and filters by reason', async () => {
    const db = await dbLedger(fx, acct.accountId);
    await nav(page).getByRole('link', { name: 'Ledger', exact: true }).click();
    await rows().first().waitFor({ state: 'visible' });
    const first = await rowAttrs(rows(), 'data-id');
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(db.length); // more rows than a page: paging is exercised
    expect(first).toEqual(db.slice(0, first.length).map((r) => r.id));
    expect(Number(await waitForAttr(page.getByTestId('ledger-total'), 'data-value', () => true))).toBe(
      db.length,
    );
    // Cells: time, reason, amount, reference, balance after.
    const cells = await rowCells(rows());
    cells.forEach((c, i) => {
      const r = db[i] as DbLedgerRow;
      expect({
        id: r.id,
        reason: c[1],
        amount: parseNumber(c[2] ?? ''),
        balanceAfter: parseNumber(c[4] ?? ''),
      }).toEqual({
        id: r.id,
        reason: r.reason,
        amount: r.amount,
        balanceAfter: r.balanceAfter,
      });
      if (r.reference) expect(c[3]).toContain(r.reference);
    });
    await axeCheck(page, 'ledger');
    await screenshot(page, 'ledger');

    await page.getByRole('button', { name: 'Older', exact: true }).click();
    const n = first.length;
    await waitForIds(db.slice(n, n + n).map((r) => r.id));
    await page.getByRole('button', { name: 'Newer', exact: true }).click();
    await waitForIds(first);

    await page.getByLabel('Reason', { exact: true }).selectOption('scrape_refund');
    const refunds = db.filter((r) => r.reason === 'scrape_refund');
    expect(refunds.length).toBeGreaterThan(1);
    await waitForIds(refunds.map((r) => r.id));
    await waitForAttr(page.getByTestId('ledger-total'), 'data-value', (v) => v === String(refunds.length));
    const link = page.getByRole('link', { name: 'Export CSV', exact: true });
    expect(await link.getAttribute('href')).toBe('/v1/ledger.csv?reason=scrape_refund');
    const filtered = await page.request.get(
      new URL('/v1/ledger.csv?reason=scrape_refund', fx.stack.url).href,
    );
    expect(filtered.status()).toBe(200);
    expect(filtered.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(filtered.headers()['content-disposition']).toMatch(
      new RegExp(`^attachment;.*filename="?ledger-${acct.accountId}\\.csv"?`),
    );
    expect(parseCsv(await filtered.text())).toEqual(refunds.map(csvRow));
  });

  it('Export CSV downloads every row of the DB, newest first', async () => {
    await page.getByLabel('Reason', { exact: true }).selectOption({ label: 'All reasons' });
    const link = page.getByRole('link', { name: 'Export CSV', exact: true });
    await waitForAttr(link, 'href', (h) => h === '/v1/ledger.csv');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(`ledger-${acct.accountId}.csv`);
    const text = readFileSync(await download.path(), 'utf8');
    const db = await dbLedger(fx, acct.accountId);
    expect(parseCsv(text)).toEqual(db.map(csvRow));
  });
});

type CsvRow = [
  id: string,
  time: string,
  reason: string,
  amount: string,
  reference: string,
  balanceAfter: string,
];

function csvRow(r: DbLedgerRow): CsvRow {
  return [
    r.id,
    r.createdAt.toISOString(),
    r.reason,
    String(r.amount),
    r.reference ?? '',
    String(r.balanceAfter),
  ];
}

/** RFC 4180 rows after the contract's header line (the seed's references need no quoting, but quotes are honoured). */
function parseCsv(text: string): CsvRow[] {
  const lines = text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  expect(lines[0]).toBe('id,time,reason,amount,reference,balance_after');
  return lines.slice(1).map((line) => {
    const fields: string[] = [];
    const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
    let m: RegExpExecArray | null = re.exec(line);
    while (m) {
      const f = m[1] ?? '';
      fields.push(f.startsWith('"') ? f.slice(1, -1).replace(/""/g, '"') : f);
      if (m[2] === '') break;
      m = re.exec(line);
    }
    // The time column is compared as an instant (the CSV may carry another ISO 8601 spelling).
    const t = Date.parse(fields[1] ?? '');
    fields[1] = Number.isNaN(t) ? (fields[1] ?? '') : new Date(t).toISOString();
    return fields as CsvRow;
  });
}
