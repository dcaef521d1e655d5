/**
 * The playground: a real POST /v1/scrape from the page (billed like any other) against a local
 * page, every result tab, the request as curl/Node/Python with the key left to $WCS_API_KEY.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { createTestAccount, type TestAccount } from '../harness';
import {
  axeCheck,
  type DashboardFixture,
  dbBalance,
  nav,
  newPage,
  pageValue,
  screenshot,
  signIn,
  startDashboard,
  text,
  waitForAttr,
  waitForText,
} from './dashboard-helpers';
import { type DashboardSite, pagePhrase, startDashboardSite } from './dashboard-sites';

jest.setTimeout(120_000);

let fx: DashboardFixture;
let site: DashboardSite;
let acct: TestAccount;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [fx, site] = await Promise.all([startDashboard(), startDashboardSite()]);
  acct = await createTestAccount({ credits: 50 });
  ({ context, page } = await newPage(fx));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: fx.stack.url });
  await signIn(fx, page, acct.apiKey);
});
afterAll(async () => {
  await fx?.close();
  await site?.close();
});

const output = (): ReturnType<Page['getByTestId']> => page.getByTestId('playground-output');

/** Select a result tab and return the output once it shows that tab. */
async function tab(name: string): Promise<string> {
  const t = page.getByRole('tablist').getByRole('tab', { name, exact: true });
  await t.click();
  await waitForAttr(t, 'aria-selected', (v) => v === 'true');
  return text(output());
}

async function scrape(url: string, format: string): Promise<void> {
  await page.getByLabel('URL', { exact: true }).fill(url);
  await page.getByLabel('Format', { exact: true }).selectOption(format);
  await page.getByRole('button', { name: 'Scrape', exact: true }).click();
}

describe('playground', () => {
  it('scrapes a local page and shows each format in its tab; the scrape is billed', async () => {
    const before = await dbBalance(fx, acct.accountId);
    await nav(page).getByRole('link', { name: 'Playground', exact: true }).click();
    expect(await page.getByLabel('Only main content', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('Engine', { exact: true }).inputValue()).toBe('auto');
    const options = (label: string): Promise<string[]> =>
      page
        .getByLabel(label, { exact: true })
        .locator('option')
        .evaluateAll((els: Array<{ value: string }>) => els.map((o) => o.value));
    expect(await options('Format')).toEqual(['markdown', 'html', 'text', 'json']);
    expect(await options('Engine')).toEqual(['auto', 'fetch', 'browser']);
    expect(await page.getByLabel('Wait for (ms)', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('Timeout (ms)', { exact: true }).inputValue()).toBe('');
    await axeCheck(page, 'playground (empty)');

    // The page calls the API with its cookie: no Authorization header, the CSRF token on the POST,
    // and the optional numbers left out while their fields are empty.
    const [sent] = await Promise.all([
      page.waitForRequest((r) => r.url() === `${fx.stack.url}/v1/scrape` && r.method() === 'POST'),
      scrape(`${site.url}/page/7`, 'html'),
    ]);
    const headers = await sent.allHeaders();
    expect(headers.authorization).toBeUndefined();
    expect(headers['x-csrf-token']).toMatch(/\S/);
    expect(sent.postDataJSON()).toEqual({
      url: `${site.url}/page/7`,
      format: 'html',
      onlyMainContent: true,
      engine: 'auto',
    });
    await waitForText(output(), (t) => t.includes(pagePhrase(7)));
    expect(await tab('Markdown')).toContain(pagePhrase(7));
    const html = await tab('HTML');
    expect(html).toContain('<p>');
    expect(html).toContain(pagePhrase(7));
    expect(await tab('Metadata')).toContain('Fixture page 7');
    await tab('JSON');
    await axeCheck(page, 'playground (result)');
    await screenshot(page, 'playground');

    await page.getByLabel('Wait for (ms)', { exact: true }).fill('0');
    await page.getByLabel('Timeout (ms)', { exact: true }).fill('20000');
    const [sentText] = await Promise.all([
      page.waitForRequest((r) => r.url() === `${fx.stack.url}/v1/scrape` && r.method() === 'POST'),
      scrape(`${site.url}/page/8`, 'text'),
    ]);
    expect(sentText.postDataJSON()).toMatchObject({ format: 'text', waitFor: 0, timeout: 20000 });
    await waitForText(output(), (t) => t.includes(pagePhrase(8)) || t.includes('Fixture page 8'));
    const text = await tab('Text');
    expect(text).toContain(pagePhrase(8));
    expect(text).not.toContain('<p>');
    expect(await dbBalance(fx, acct.accountId)).toBe(before - 2);
  });

  it('Copy as curl/Node/Python show the request with $WCS_API_KEY, never the key', async () => {
    const url = `${site.url}/page/9`;
    await page.getByLabel('URL', { exact: true }).fill(url);
    await page.getByLabel('Format', { exact: true }).selectOption('markdown');
    const seen = new Set<string>();
    for (const label of ['Copy as curl', 'Copy as Node', 'Copy as Python']) {
      await page.getByRole('button', { name: label, exact: true }).click();
      const snippet = await waitForText(page.getByTestId('snippet'), (t) => t.includes(url) && !seen.has(t));
      seen.add(snippet);
      expect(snippet).toContain('WCS_API_KEY');
      expect(snippet).toContain(`${fx.stack.url}/v1/scrape`);
      expect(snippet).not.toContain(acct.apiKey);
      expect(snippet).not.toContain(acct.apiKey.slice(4, 20));
      // What landed on the clipboard is the snippet shown.
      expect((await pageValue<string>(page, 'navigator.clipboard.readText()')).trim()).toBe(snippet.trim());
    }
    expect(seen.size).toBe(3);
  });

  it('an API error is shown in role=alert and bills nothing', async () => {
    const before = await dbBalance(fx, acct.accountId);
    await scrape('ftp://example.com/file', 'markdown');
    const alert = page.getByRole('alert').filter({ hasText: /\S/ });
    const message = await waitForText(alert.first(), (t) => t.trim().length > 0);
    expect(message.toLowerCase()).toMatch(/url|http/);
    expect(await dbBalance(fx, acct.accountId)).toBe(before);
  });
});
