/**
 * A batch document's verdict in the dashboard: a login wall and a parked domain are delivered
 * with a badge naming what they are and the warning; the page's own title (hostile markup here)
 * stays text.
 */
import { startVerdictSite, type VerdictSite } from '@wcs/testing';
import type { Page } from 'playwright-core';
import { createTestAccount, pollUntil, type TestAccount } from '../harness';
import {
  api,
  axeCheck,
  type DashboardFixture,
  newPage,
  pageValue,
  signIn,
  startDashboard,
  text,
  waitForText,
} from './dashboard-helpers';
import { HOSTILE_IMG } from './dashboard-sites';

jest.setTimeout(120_000);

let fx: DashboardFixture;
let site: VerdictSite;
let acct: TestAccount;
let page: Page;

beforeAll(async () => {
  [fx, site] = await Promise.all([startDashboard(), startVerdictSite()]);
  acct = await createTestAccount({ credits: 100 });
  page = (await newPage(fx)).page;
  await signIn(fx, page, acct.apiKey);
});
afterAll(async () => {
  await fx?.close();
  await site?.close();
});

type Item = { itemId: string; url: string; status: string };

it('a login wall and a parked domain show their verdict badge and warning, as text', async () => {
  // The title is raw text inside <title>: the document's metadata.title carries the markup as is.
  site.set(
    '/login-hostile',
    `<!DOCTYPE html><html><head><title>${HOSTILE_IMG} Sign in</title></head><body><form><input type="password" name="p"><button>Sign in</button></form></body></html>`,
  );
  const urls = [`${site.url}/login-hostile`, `${site.url}/parked`];
  const batch = await api<{ id: string }>(fx, acct.apiKey, 'POST', '/v1/batch/scrape', { urls });
  expect(batch.status).toBe(202);
  const items = await pollUntil(async () => {
    const r = await api<{ data: Item[] }>(
      fx,
      acct.apiKey,
      'GET',
      `/v1/batch/scrape/${batch.body.id}/results`,
    );
    return r.body.data.length === 2 && r.body.data.every((i) => i.status === 'done')
      ? r.body.data
      : undefined;
  }, 30_000);
  for (const [path, label, verdict, warning] of [
    ['/login-hostile', 'Login wall', 'login-wall', /login wall/],
    ['/parked', 'Parked domain', 'parked', /parked domain/],
  ] as const) {
    const item = items.find((i) => i.url === `${site.url}${path}`);
    if (!item) throw new Error(`no item for ${path}`);
    await page.goto(`${fx.stack.url}/dashboard#/documents/batch/${batch.body.id}/${item.itemId}`);
    // The view of the previous document may still show: wait for this one's badge.
    const badge = page.getByTestId('document-verdict');
    await waitForText(badge, (t) => t === label);
    expect(await badge.getAttribute('data-verdict')).toBe(verdict);
    expect(await text(page.getByTestId('document-warning'))).toMatch(warning);
    if (path !== '/login-hostile') continue;
    expect(await text(page.locator('dl.facts'))).toContain(`${HOSTILE_IMG} Sign in`);
    const inert = await pageValue<{ pwned: string; imgs: number }>(
      page,
      `({ pwned: typeof window.__pwned, imgs: document.querySelectorAll('img[src="x"], [onerror]').length })`,
    );
    expect(inert).toEqual({ pwned: 'undefined', imgs: 0 });
  }
  await axeCheck(page, 'document with a verdict');
});
