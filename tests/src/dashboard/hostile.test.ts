/**
 * Hostile content through every view: a page whose title, text, links and metadata carry markup,
 * event handlers and javascript: URLs is scraped, batched, crawled and monitored; an account name,
 * a ledger reference and a key name carry the same. Every view must show it as text: no script
 * runs (window.__pwned stays undefined, no dialog opens) and no javascript: link reaches the DOM.
 */
import type { Page } from 'playwright-core';
import { createTestAccount, pollUntil, type TestAccount } from '../harness';
import {
  api,
  type DashboardFixture,
  MONITOR_INTERVAL_MS,
  newPage,
  openRoute,
  pageValue,
  seedLedger,
  signIn,
  startDashboard,
  waitForAttr,
  waitForText,
} from './dashboard-helpers';
import {
  type DashboardSite,
  HOSTILE_IMG,
  HOSTILE_TITLE,
  hostileHtml,
  startDashboardSite,
} from './dashboard-sites';

jest.setTimeout(120_000);

let fx: DashboardFixture;
let site: DashboardSite;
let acct: TestAccount;
let page: Page;
const dialogs: string[] = [];
const cspMessages: string[] = [];
const HOSTILE_RULE = '<img src=x onerror=window.__pwned=2> (never on the page)';
const ids = { batch: '', batchItem: '', crawl: '', crawlPage: '', monitor: '' };

beforeAll(async () => {
  [fx, site] = await Promise.all([startDashboard(), startDashboardSite()]);
  acct = await createTestAccount({ credits: 500 });
  await fx.db.prisma.account.update({ where: { id: acct.accountId }, data: { name: HOSTILE_TITLE } });
  await seedLedger(fx, acct.accountId, [
    { reason: 'adjustment', amount: 1, reference: HOSTILE_IMG, createdAt: new Date(Date.now() - 60_000) },
  ]);
  expect((await api(fx, acct.apiKey, 'POST', '/v1/keys', { name: HOSTILE_IMG })).status).toBe(201);
  expect((await api(fx, acct.apiKey, 'POST', '/v1/scrape', { url: `${site.url}/hostile` })).status).toBe(200);

  const batch = await api<{ id: string }>(fx, acct.apiKey, 'POST', '/v1/batch/scrape', {
    urls: [`${site.url}/hostile`],
    format: 'html',
  });
  expect(batch.status).toBe(202);
  ids.batch = batch.body.id;
  const crawl = await api<{ id: string }>(fx, acct.apiKey, 'POST', '/v1/crawl', {
    url: `${site.url}/hostile`,
    maxDepth: 1,
    includePaths: ['^/hostile'],
    format: 'html',
  });
  expect(crawl.status).toBe(202);
  ids.crawl = crawl.body.id;
  site.set('/hostile-monitored', hostileHtml('one'));
  const monitor = await api<{ data: { id: string } }>(fx, acct.apiKey, 'POST', '/v1/monitor', {
    url: `${site.url}/hostile-monitored`,
    interval: 'hourly',
    // A rule the page never matches, shown on the detail page as text.
    ignoreText: [HOSTILE_RULE],
  });
  expect(monitor.status).toBe(201);
  ids.monitor = monitor.body.data.id;

  type Detail = { lastCheckAt: string | null; changes: unknown[] };
  const monitorDetail = async (): Promise<Detail> =>
    (await api<{ data: Detail }>(fx, acct.apiKey, 'GET', `/v1/monitor/${ids.monitor}`)).body.data;
  await pollUntil(async () => ((await monitorDetail()).lastCheckAt ? true : undefined), 20_000);
  site.set('/hostile-monitored', hostileHtml('two'));
  await pollUntil(
    async () => ((await monitorDetail()).changes.length > 0 ? true : undefined),
    MONITOR_INTERVAL_MS * 10 + 10_000,
  );
  type Results<T> = { data: T[] };
  ids.batchItem = await pollUntil(async () => {
    const r = await api<Results<{ itemId: string; status: string }>>(
      fx,
      acct.apiKey,
      'GET',
      `/v1/batch/scrape/${ids.batch}/results`,
    );
    return r.body.data[0]?.status === 'done' ? r.body.data[0].itemId : undefined;
  }, 30_000);
  ids.crawlPage = await pollUntil(async () => {
    const c = await api<{ status: string }>(fx, acct.apiKey, 'GET', `/v1/crawl/${ids.crawl}`);
    if (c.body.status !== 'done') return undefined;
    const r = await api<Results<{ pageId: string; url: string }>>(
      fx,
      acct.apiKey,
      'GET',
      `/v1/crawl/${ids.crawl}/results`,
    );
    return r.body.data.find((p) => p.url === `${site.url}/hostile`)?.pageId;
  }, 30_000);

  page = (await newPage(fx)).page;
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (/content security policy|refused to/i.test(m.text())) cspMessages.push(m.text());
  });
  await signIn(fx, page, acct.apiKey);
});
afterAll(async () => {
  if (ids.monitor) await api(fx, acct.apiKey, 'DELETE', `/v1/monitor/${ids.monitor}`).catch(() => undefined);
  // For information: what the CSP refused while the views rendered (expected: nothing).
  if (cspMessages.length > 0) console.log(`CSP console messages:\n${cspMessages.join('\n')}`);
  await fx?.close();
  await site?.close();
});

interface InertReport {
  pwned: string;
  scriptLinks: number;
  handlers: number;
  inlineScripts: number;
  frames: number;
  otherLinks: string[];
}

/** Nothing of the hostile markup became live DOM, and nothing ran. */
async function expectInert(label: string): Promise<void> {
  const report = await pageValue<InertReport>(
    page,
    `({
      pwned: typeof window.__pwned,
      scriptLinks: document.querySelectorAll('a[href^="javascript:" i], a[href^="data:" i], [src^="javascript:" i], [href^="vbscript:" i]').length,
      handlers: document.querySelectorAll('[onerror], [onload], [onclick], [onmouseover], [onfocus]').length,
      inlineScripts: document.querySelectorAll('script:not([src])').length,
      frames: document.querySelectorAll('iframe, object, embed, img[src="x"]').length,
      // A link is an in-page route, a same-origin path or an http(s) URL, nothing else.
      otherLinks: Array.from(document.querySelectorAll('a[href]'))
        .map((a) => a.getAttribute('href'))
        .filter((h) => !(h.startsWith('#') || (h.startsWith('/') && !h.startsWith('//')) || /^https?:/i.test(h))),
    })`,
  );
  expect({ label, ...report, dialogs }).toEqual({
    label,
    pwned: 'undefined',
    scriptLinks: 0,
    handlers: 0,
    inlineScripts: 0,
    frames: 0,
    otherLinks: [],
    dialogs: [],
  });
}

/** The hostile markup is on screen as text. */
async function expectHostileText(label: string): Promise<void> {
  const hit = page.getByText(/onerror=/).first();
  await hit.waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {
    throw new Error(`${label}: no visible text containing "onerror="`);
  });
}

async function tabs(label: string): Promise<void> {
  for (const name of ['Markdown', 'Text', 'HTML', 'JSON', 'Metadata']) {
    const tab = page.getByRole('tab', { name, exact: true });
    await tab.click();
    await waitForAttr(tab, 'aria-selected', (v) => v === 'true');
    if (name !== 'Text' && name !== 'JSON') {
      // Markdown and HTML carry the text; Metadata the title. (Text/JSON were not asked for.)
      await expectHostileText(`${label} / ${name}`);
    }
    await expectInert(`${label} / ${name}`);
  }
}

describe('hostile content is text on every view', () => {
  it('overview, ledger, keys', async () => {
    await openRoute(fx, page, 'overview');
    await page.getByTestId('balance').waitFor({ state: 'visible' });
    await page.locator('[data-testid="usage-chart"] canvas').first().waitFor({ state: 'visible' });
    await expectInert('overview');

    await openRoute(fx, page, 'ledger');
    await page
      .getByTestId('ledger-table')
      .getByText(HOSTILE_IMG, { exact: true })
      .waitFor({ state: 'visible' });
    await expectInert('ledger');

    await openRoute(fx, page, 'keys');
    await page
      .getByTestId('keys-table')
      .getByText(HOSTILE_IMG, { exact: true })
      .waitFor({ state: 'visible' });
    await expectInert('keys');
  });

  it('jobs, crawl detail, batch detail and both document views (all tabs)', async () => {
    await openRoute(fx, page, 'jobs');
    await page.getByTestId('crawls-table').locator(`tr[data-crawl-id="${ids.crawl}"]`).waitFor();
    await page.getByTestId('batches-table').locator(`tr[data-batch-id="${ids.batch}"]`).waitFor();
    await expectInert('jobs');

    await openRoute(fx, page, `jobs/crawl/${ids.crawl}`);
    await page.getByTestId('results-table').locator('tr:has(td)').nth(1).waitFor();
    await expectInert('crawl detail');
    await openRoute(fx, page, `jobs/batch/${ids.batch}`);
    await page.getByTestId('results-table').locator('tr:has(td)').first().waitFor();
    await expectInert('batch detail');

    await openRoute(fx, page, `documents/crawl/${ids.crawl}/${ids.crawlPage}`);
    await page.getByText(HOSTILE_TITLE).first().waitFor({ state: 'visible' });
    await tabs('crawl document');
    await openRoute(fx, page, `documents/batch/${ids.batch}/${ids.batchItem}`);
    await page.getByText(HOSTILE_TITLE).first().waitFor({ state: 'visible' });
    await tabs('batch document');
  });

  it('monitors list and monitor detail (hostile snapshots and diff)', async () => {
    await openRoute(fx, page, 'monitors');
    await page.getByTestId('monitors-table').locator(`tr[data-monitor-id="${ids.monitor}"]`).waitFor();
    await expectInert('monitors');
    await openRoute(fx, page, `monitors/${ids.monitor}`);
    await page.getByTestId('changes').locator('li[data-change-id] pre').first().waitFor({ state: 'visible' });
    await expectHostileText('monitor detail');
    expect(await page.getByTestId('monitor-ignore').textContent()).toContain(HOSTILE_RULE);
    await expectInert('monitor detail');
  });

  it('playground: scraping the hostile page there too', async () => {
    await openRoute(fx, page, 'playground');
    await page.getByLabel('URL', { exact: true }).fill(`${site.url}/hostile`);
    await page.getByLabel('Format', { exact: true }).selectOption('html');
    await page.getByRole('button', { name: 'Scrape', exact: true }).click();
    await waitForText(page.getByTestId('playground-output'), (t) => t.includes('onerror='));
    await tabs('playground');
    await page.getByRole('button', { name: 'Copy as curl', exact: true }).click();
    await page.getByTestId('snippet').waitFor({ state: 'visible' });
    await expectInert('playground snippet');
  });
});
