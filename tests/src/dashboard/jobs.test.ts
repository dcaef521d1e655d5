/**
 * Jobs in the dashboard: a crawl of slow local pages is watched making progress until done, a
 * second crawl is cancelled from the page, and a batch's results open as documents.
 */
import type { Locator, Page } from 'playwright-core';
import { createTestAccount, pollUntil, type TestAccount } from '../harness';
import {
  api,
  axeCheck,
  type DashboardFixture,
  nav,
  newPage,
  openRoute,
  rowCells,
  screenshot,
  signIn,
  startDashboard,
  text,
  waitForAttr,
  waitForText,
} from './dashboard-helpers';
import { type DashboardSite, pagePhrase, startDashboardSite } from './dashboard-sites';

jest.setTimeout(120_000);

const SLOW_PAGES = 15;

interface CrawlStatus {
  status: string;
  stopReason?: string;
  total: number;
  completed: number;
  failed: number;
}

let fx: DashboardFixture;
let site: DashboardSite;
let acct: TestAccount;
let page: Page;

beforeAll(async () => {
  [fx, site] = await Promise.all([startDashboard(), startDashboardSite({ slowPages: SLOW_PAGES })]);
  acct = await createTestAccount({ credits: 500 });
  page = (await newPage(fx)).page;
  await signIn(fx, page, acct.apiKey);
});
afterAll(async () => {
  await fx?.close();
  await site?.close();
});

async function startCrawl(delayMs: number): Promise<string> {
  const res = await api<{ id: string }>(fx, acct.apiKey, 'POST', '/v1/crawl', {
    url: `${site.url}/slow/`,
    maxDepth: 1,
    includePaths: ['^/slow'],
    // Politeness spacing keeps the crawl running across several of the page's 2 s refreshes.
    delayMs,
  });
  expect(res.status).toBe(202);
  return res.body.id;
}

const crawlApi = async (id: string): Promise<CrawlStatus> =>
  (await api<CrawlStatus>(fx, acct.apiKey, 'GET', `/v1/crawl/${id}?limit=1`)).body;

const dataValue = async (l: Locator): Promise<number> =>
  Number(await waitForAttr(l, 'data-value', (v) => v !== ''));

/** Click a tab of the document tabs and return the tab panel's text once that tab is selected. */
async function tabText(p: Page, name: string): Promise<string> {
  const tab = p.getByRole('tab', { name, exact: true });
  await tab.click();
  await waitForAttr(tab, 'aria-selected', (v) => v === 'true');
  return text(p.getByRole('tabpanel'));
}

describe('jobs', () => {
  it('a crawl detail shows its counts rising while it runs, then done', async () => {
    const id = await startCrawl(500);
    await page.goto(`${fx.stack.url}/dashboard#/jobs/crawl/${id}`);
    const completed = page.getByTestId('crawl-completed');
    const seen = new Set<number>();
    // Polled without reloading: the page refreshes itself while the crawl runs.
    await pollUntil(
      async () => {
        seen.add(await dataValue(completed));
        const status = (await text(page.getByTestId('crawl-status'))).trim();
        return status === 'done' ? true : undefined;
      },
      60_000,
      100,
    );
    const final = await crawlApi(id);
    expect(final).toMatchObject({ status: 'done', stopReason: 'completed', failed: 0 });
    expect(final.completed).toBe(SLOW_PAGES + 1);
    const intermediate = [...seen].filter((v) => v > 0 && v < final.completed);
    expect({ seen: [...seen], intermediate: intermediate.length > 0 }).toMatchObject({ intermediate: true });
    expect(await dataValue(completed)).toBe(final.completed);
    expect(await dataValue(page.getByTestId('crawl-discovered'))).toBe(final.total);
    expect(await dataValue(page.getByTestId('crawl-failed'))).toBe(0);
    expect(await waitForText(page.getByTestId('crawl-status'), (t) => t.includes('done'))).toContain('done');
    expect(await page.locator('progress').count()).toBe(1);
    const results = page.getByTestId('results-table').locator('tr:has(td)');
    await pollUntil(async () => ((await results.count()) === final.completed ? true : undefined), 10_000);
    const urls = (await rowCells(results)).map((c) => c[0]);
    expect(urls.sort()).toEqual(
      [
        `${site.url}/slow/`,
        ...Array.from({ length: SLOW_PAGES }, (_, i) => `${site.url}/slow/${i + 1}`),
      ].sort(),
    );
    await axeCheck(page, 'crawl detail');
    await screenshot(page, 'crawl');

    // A crawled page opens as a document.
    await results
      .filter({ hasText: `${site.url}/slow/3` })
      .getByRole('link', { name: 'Open', exact: true })
      .click();
    await page.waitForURL((u) => u.hash.startsWith(`#/documents/crawl/${id}/`));
    expect(await tabText(page, 'Markdown')).toContain('Slow page 3 arrived late on purpose.');
  });

  it('a running crawl is cancelled from the page through the dialog', async () => {
    const id = await startCrawl(2_000);
    await page.goto(`${fx.stack.url}/dashboard#/jobs/crawl/${id}`);
    await page.getByRole('button', { name: 'Cancel crawl', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ state: 'visible' });
    await dialog.getByRole('button', { name: 'Keep', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(['pending', 'processing']).toContain((await crawlApi(id)).status);
    await page.getByRole('button', { name: 'Cancel crawl', exact: true }).click();
    await dialog.getByRole('button', { name: 'Cancel crawl', exact: true }).click();
    const status = (
      await waitForText(page.getByTestId('crawl-status'), (t) =>
        ['done', 'failed', 'cancelled'].includes(t.trim()),
      )
    ).trim();
    const api1 = await crawlApi(id);
    expect(api1.stopReason).toBe('cancelled');
    expect(status).toBe(api1.status);
    await waitForText(page.locator('main'), (t) => t.includes('cancelled'));
    expect(api1.completed).toBeLessThan(SLOW_PAGES + 1);
  });

  it('the jobs list refreshes itself while a crawl runs', async () => {
    const id = await startCrawl(2_000);
    await nav(page).getByRole('link', { name: 'Jobs', exact: true }).click();
    const row = page.getByTestId('crawls-table').locator(`tr[data-crawl-id="${id}"]`);
    await waitForText(row, (t) => /pending|processing/.test(t));
    // Stopped behind the page's back: the row must catch up without a reload.
    expect((await api(fx, acct.apiKey, 'DELETE', `/v1/crawl/${id}`)).status).toBe(200);
    const terminal = (await crawlApi(id)).status;
    expect(['done', 'failed']).toContain(terminal);
    await waitForText(row, (t) => t.includes(terminal) && !/pending|processing/.test(t), 10_000);
  });

  it('a batch shows in the jobs tables with its results, and Open shows the document', async () => {
    const urls = [1, 2, 3].map((n) => `${site.url}/page/${n}`);
    const res = await api<{ id: string }>(fx, acct.apiKey, 'POST', '/v1/batch/scrape', {
      urls,
      format: 'html',
    });
    expect(res.status).toBe(202);
    const id = res.body.id;
    await pollUntil(async () => {
      const b = await api<{ status: string }>(fx, acct.apiKey, 'GET', `/v1/batch/scrape/${id}`);
      return b.body.status === 'done' ? true : undefined;
    }, 30_000);

    // A fresh load: the previous test left the page on the jobs list, which stops refreshing once
    // every job it shows is finished (the new batch would not appear by itself).
    await openRoute(fx, page, 'jobs');
    const batchRow = page.getByTestId('batches-table').locator(`tr[data-batch-id="${id}"]`);
    await waitForText(batchRow, (t) => t.includes('done'));
    expect(await page.getByTestId('crawls-table').locator('tr[data-crawl-id]').count()).toBe(3);
    await axeCheck(page, 'jobs');
    await screenshot(page, 'jobs');

    await page.goto(`${fx.stack.url}/dashboard#/jobs/batch/${id}`);
    expect(await dataValue(page.getByTestId('batch-completed'))).toBe(3);
    const results = page.getByTestId('results-table').locator('tr:has(td)');
    await pollUntil(async () => ((await results.count()) === 3 ? true : undefined), 10_000);
    expect((await rowCells(results)).map((c) => c[0])).toEqual(urls);
    await axeCheck(page, 'batch detail');

    await results.first().getByRole('link', { name: 'Open', exact: true }).click();
    await page.waitForURL((u) => u.hash.startsWith(`#/documents/batch/${id}/`));
    expect(await tabText(page, 'Markdown')).toContain(pagePhrase(1));
    const html = await tabText(page, 'HTML');
    // The html is shown as its source text.
    expect(html).toContain('<p>');
    expect(html).toContain(pagePhrase(1));
    expect(await tabText(page, 'Metadata')).toContain('Fixture page 1');
    for (const tab of ['Text', 'JSON']) await tabText(page, tab);
    await axeCheck(page, 'document');
    await screenshot(page, 'document');
  });
});
