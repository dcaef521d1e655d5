/**
 * Monitors in the dashboard: a monitor created through the API with a webhook to a local receiver
 * detects two changes of a local page (hourly = 2 s here); the detail view shows both snapshots,
 * the diff between them and the deliveries; pause/resume/cancel from the page reach the API.
 */
import type { Locator, Page } from 'playwright-core';
import { createTestAccount, pollUntil, type TestAccount } from '../harness';
import {
  api,
  axeCheck,
  type DashboardFixture,
  MONITOR_INTERVAL_MS,
  nav,
  newPage,
  rowCells,
  screenshot,
  signIn,
  startDashboard,
  text,
  waitForText,
} from './dashboard-helpers';
import { articleHtml, type DashboardSite, startDashboardSite, startReceiver } from './dashboard-sites';

jest.setTimeout(120_000);

interface MonitorDetail {
  id: string;
  status: string;
  pausedBy: 'user' | 'credits' | null;
  lastCheckAt: string | null;
  changes: Array<{ id: string; snapshot: string; previousSnapshot: string | null }>;
  webhookDeliveries: Array<{
    changeId: string;
    statusCode: number | null;
    durationMs: number;
    error: string | null;
  }>;
}

const pricing = (price: string): string =>
  articleHtml('Pricing', `The basic plan costs ${price} dollars per month and includes email support.`);

let fx: DashboardFixture;
let site: DashboardSite;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let acct: TestAccount;
let page: Page;
const created: string[] = [];

beforeAll(async () => {
  [fx, site, receiver] = await Promise.all([startDashboard(), startDashboardSite(), startReceiver()]);
  acct = await createTestAccount({ credits: 500 });
  page = (await newPage(fx)).page;
  await signIn(fx, page, acct.apiKey);
});
afterAll(async () => {
  // Cancelled so later runs' schedulers (rebuilt from the shared test database) never pick them up.
  for (const id of created) await api(fx, acct.apiKey, 'DELETE', `/v1/monitor/${id}`).catch(() => undefined);
  await fx?.close();
  await receiver?.close();
  await site?.close();
});

async function detail(id: string): Promise<MonitorDetail> {
  const res = await api<{ data: MonitorDetail }>(fx, acct.apiKey, 'GET', `/v1/monitor/${id}`);
  if (res.status !== 200) throw new Error(`GET /v1/monitor/${id}: ${res.status}`);
  return res.body.data;
}

/** Wait until the API shows `changes` changes and as many deliveries. */
function waitForChanges(id: string, changes: number): Promise<MonitorDetail> {
  return pollUntil(
    async () => {
      const d = await detail(id);
      return d.changes.length >= changes && d.webhookDeliveries.length >= changes ? d : undefined;
    },
    MONITOR_INTERVAL_MS * 10 + 10_000,
  );
}

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

/** The texts before and after a rendered diff: plain text + <del> = before, plain + <ins> = after. */
async function diffSides(
  diff: Locator,
): Promise<{ before: string; after: string; ins: number; del: number }> {
  const parts = await diff.evaluate((root: DomNode) => {
    const out: Array<[string, string]> = [];
    const walk = (n: DomNode, kind: string): void => {
      for (const c of Array.from(n.childNodes)) {
        if (c.nodeType === 3) out.push([kind, c.textContent ?? '']);
        else {
          const tag = c.nodeName.toLowerCase();
          walk(c, tag === 'ins' || tag === 'del' ? tag : kind);
        }
      }
    };
    walk(root, 'same');
    return out;
  });
  const side = (skip: string): string =>
    parts
      .filter(([k]) => k !== skip)
      .map(([, t]) => t)
      .join('')
      .replace(/\s+/g, ' ');
  return {
    before: side('ins'),
    after: side('del'),
    ins: parts.filter(([k, t]) => k === 'ins' && t.trim()).length,
    del: parts.filter(([k, t]) => k === 'del' && t.trim()).length,
  };
}

describe('monitors', () => {
  it('the detail view shows the changes with snapshots and a diff, and the deliveries with status 200', async () => {
    site.set('/pricing', pricing('ten'));
    const res = await api<{ data: { id: string } }>(fx, acct.apiKey, 'POST', '/v1/monitor', {
      url: `${site.url}/pricing`,
      interval: 'hourly',
      webhookUrl: `${receiver.url}/hook`,
      ignoreText: ['/^Last updated/i'],
    });
    expect(res.status).toBe(201);
    const id = res.body.data.id;
    created.push(id);
    await pollUntil(async () => ((await detail(id)).lastCheckAt ? true : undefined), 20_000);
    site.set('/pricing', pricing('twelve'));
    await waitForChanges(id, 1);
    site.set('/pricing', pricing('fifteen'));
    const d = await waitForChanges(id, 2);
    expect(d.webhookDeliveries.every((w) => w.statusCode === 200)).toBe(true);
    expect(receiver.received.filter((r) => r.path === '/hook').length).toBeGreaterThanOrEqual(2);
    const newest = d.changes.find((c) => c.snapshot.includes('fifteen dollars'));
    const older = d.changes.find((c) => c.snapshot.includes('twelve dollars'));
    if (!newest || !older) throw new Error(`changes: ${JSON.stringify(d.changes)}`);

    // The list: url as text, a Details link to the detail view.
    await nav(page).getByRole('link', { name: 'Monitors', exact: true }).click();
    const row = page.getByTestId('monitors-table').locator(`tr[data-monitor-id="${id}"]`);
    await row.waitFor({ state: 'visible' });
    const cells = ((await rowCells(row))[0] ?? []).join(' ');
    expect(cells).toContain(`${site.url}/pricing`);
    expect(cells).toContain('hourly');
    expect(cells).toContain('active');
    await axeCheck(page, 'monitors list');
    await row.getByRole('link', { name: 'Details', exact: true }).click();
    await page.waitForURL((u) => u.hash === `#/monitors/${id}`);
    await waitForText(page.getByTestId('monitor-status'), (t) => t.includes('active'));

    const changes = page.getByTestId('changes').locator('li[data-change-id]');
    await pollUntil(async () => ((await changes.count()) === d.changes.length ? true : undefined), 10_000);
    const item = page.getByTestId('changes').locator(`li[data-change-id="${newest.id}"]`);
    expect(await text(item.locator('pre.snapshot'))).toContain('fifteen dollars');
    const sides = await diffSides(item.getByTestId('change-diff'));
    expect(sides.ins).toBeGreaterThan(0);
    expect(sides.del).toBeGreaterThan(0);
    expect(sides.before).toContain('twelve dollars');
    expect(sides.after).toContain('fifteen dollars');
    expect(sides.after).not.toContain('twelve dollars');
    // The rules and the lines the checker saw change (its diff, kept with the change).
    expect(await text(page.getByTestId('monitor-ignore'))).toContain('/^Last updated/i');
    expect(await text(page.getByTestId('monitor-schedule'))).toBe('hourly');
    expect(await text(page.getByTestId('monitor-webhook-format'))).toMatch(/^JSON/);
    expect(await text(page.getByTestId('monitor-threshold'))).toBe('any change');
    expect(await text(page.getByTestId('monitor-goal'))).toBe('—');
    const lines = (await item.getByTestId('change-lines').textContent()) ?? '';
    expect(lines).toMatch(/- [^\n]*twelve dollars/);
    expect(lines).toMatch(/\+ [^\n]*fifteen dollars/);
    const olderItem = page.getByTestId('changes').locator(`li[data-change-id="${older.id}"]`);
    expect(await text(olderItem.locator('pre.snapshot'))).toContain('twelve dollars');
    // The first change is diffed against its previousSnapshot: the baseline the monitor started from.
    expect(older.previousSnapshot).toContain('ten dollars');
    const first = await diffSides(olderItem.getByTestId('change-diff'));
    expect(first.before).toContain('ten dollars');
    expect(first.after).toContain('twelve dollars');
    expect(first.after).not.toContain('ten dollars');

    const deliveries = page.getByTestId('deliveries-table').locator('tr:has(td)');
    const shown = await rowCells(deliveries);
    expect(shown).toHaveLength(d.webhookDeliveries.length);
    // Cells: time, status code, duration ms, error.
    for (const c of shown) expect(c[1]).toBe('200');
    expect(shown.map((c) => c[2]).sort()).toEqual(
      d.webhookDeliveries.map((w) => w.durationMs.toLocaleString('en-US')).sort(),
    );

    await page.getByRole('button', { name: 'Show signing secret', exact: true }).click();
    const secret = await api<{ data: { secret: string } }>(fx, acct.apiKey, 'GET', '/v1/webhook/secret');
    expect((await waitForText(page.getByTestId('webhook-secret'), (t) => t.length > 0)).trim()).toBe(
      secret.body.data.secret,
    );
    await axeCheck(page, 'monitor detail');
    await screenshot(page, 'monitor');
  });

  it('pause, resume and cancel from the page change the status, also through the API', async () => {
    site.set('/status', pricing('nine'));
    // A cron schedule and the other rules: the detail shows each as the API has it.
    const res = await api<{ data: { id: string } }>(fx, acct.apiKey, 'POST', '/v1/monitor', {
      url: `${site.url}/status`,
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      webhookUrl: `${receiver.url}/status-hook`,
      webhookFormat: 'discord',
      threshold: 0.2,
      goal: 'the price of the basic plan',
    });
    expect(res.status).toBe(201);
    const id = res.body.data.id;
    created.push(id);
    await page.goto(`${fx.stack.url}/dashboard#/monitors/${id}`);
    const status = page.getByTestId('monitor-status');
    await waitForText(status, (t) => t.includes('active'));
    expect(await text(page.getByTestId('monitor-schedule'))).toBe('cron 0 9 * * 1-5 in Europe/Paris');
    expect(await text(page.getByTestId('monitor-webhook-format'))).toBe('Discord message');
    expect(await text(page.getByTestId('monitor-threshold'))).toBe('20 % of words');
    expect(await text(page.getByTestId('monitor-goal'))).toBe('the price of the basic plan');
    const listed = await api<{ data: Array<{ id: string; interval: string; cron?: string }> }>(
      fx,
      acct.apiKey,
      'GET',
      '/v1/monitor',
    );
    expect(listed.body.data.find((m) => m.id === id)).toMatchObject({
      interval: 'cron',
      cron: '0 9 * * 1-5',
    });

    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await waitForText(status, (t) => t.includes('paused'));
    expect(await detail(id)).toMatchObject({ status: 'paused', pausedBy: 'user' });
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await waitForText(status, (t) => t.includes('active'));
    expect(await detail(id)).toMatchObject({ status: 'active', pausedBy: null });

    // "Keep" leaves it running; confirming cancels it.
    await page.getByRole('button', { name: 'Cancel monitor', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ state: 'visible' });
    await axeCheck(page, 'monitor: cancel dialog');
    await dialog.getByRole('button', { name: 'Keep', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await detail(id)).status).toBe('active');
    await page.getByRole('button', { name: 'Cancel monitor', exact: true }).click();
    await dialog.getByRole('button', { name: 'Cancel monitor', exact: true }).click();
    await waitForText(status, (t) => t.includes('cancelled'));
    expect((await detail(id)).status).toBe('cancelled');
    expect(await page.getByRole('button', { name: 'Pause', exact: true }).count()).toBe(0);
    // The API's own rules for a cancelled monitor.
    expect((await api(fx, acct.apiKey, 'POST', `/v1/monitor/${id}/pause`)).status).toBe(409);
    expect((await api(fx, acct.apiKey, 'POST', `/v1/monitor/${id}/resume`)).status).toBe(409);
  });
});
