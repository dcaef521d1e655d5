/**
 * `awaitChallenge`: the browser waits for a challenge page's own navigation (script sets a cookie,
 * reloads) and returns the page after it; without the option it never waits; a challenge that
 * never clears ends the wait within the budget with the challenge page. And `auto` never renders an
 * error answer in the browser on its own (the scraper's ladder decides that).
 */
import { randomUUID } from 'node:crypto';
import { startWallSite, WALL_SITE_ARTICLE, type WallSite } from '@wcs/testing';
import { createRenderer } from './renderer';
import { testOptions } from './test-support/options';
import type { ChallengeAnswer, Renderer } from './types';

const MARKER = `--wcs-test-run=${randomUUID()}`;
/** The caller's recogniser (the scraper passes detectBlock's): here, the vendor header alone. */
const isChallenge = (a: ChallengeAnswer) => a.headers['cf-mitigated'] === 'challenge';

let site: WallSite;
let renderer: Renderer;
let n = 0;
const fresh = (path: string) => `${path}?t=${++n}`;

beforeAll(async () => {
  site = await startWallSite();
  renderer = createRenderer(
    testOptions({
      fetchTimeoutMs: 20_000,
      browser: {
        enabled: true,
        executablePath: '/usr/bin/chromium',
        maxPages: 2,
        args: [MARKER],
        // Room for a loaded machine's browser to run the challenge's script and reload.
        challengeWaitMs: 6_000,
      },
    }),
  );
});
afterAll(async () => {
  await renderer.close();
  await site.close();
});

describe('browser awaitChallenge', () => {
  it('waits for the challenge script to set its cookie and reload, and returns the page after it', async () => {
    const path = fresh('/challenge');
    const res = await renderer.render({
      url: `${site.url}${path}`,
      engine: 'browser',
      awaitChallenge: isChallenge,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(WALL_SITE_ARTICLE);
    expect(res.headers['cf-mitigated']).toBeUndefined();
    expect(res.challenge).toMatchObject({ cleared: true });
    expect(site.requests(path)).toBe(2);
  });

  it('without the option the browser does not wait for the reload: the challenge answer comes back', async () => {
    const path = fresh('/never');
    const res = await renderer.render({ url: `${site.url}${path}`, engine: 'browser' });
    expect(res.statusCode).toBe(503);
    expect(res.challenge).toBeUndefined();
  });

  it('an ordinary page is read once, with no challenge wait', async () => {
    const path = fresh('/plain');
    const res = await renderer.render({
      url: `${site.url}${path}`,
      engine: 'browser',
      awaitChallenge: isChallenge,
    });
    expect(res.statusCode).toBe(200);
    expect(res.challenge).toBeUndefined();
    expect(site.requests(path)).toBe(1);
  });

  it('a challenge that never clears ends the wait within the budget and returns the challenge', async () => {
    const path = fresh('/never');
    const res = await renderer.render({
      url: `${site.url}${path}`,
      engine: 'browser',
      awaitChallenge: isChallenge,
      timeoutMs: 15_000,
    });
    expect(res.statusCode).toBe(503);
    expect(res.challenge).toMatchObject({ cleared: false });
    // challengeWaitMs (6 s) bounds the wait, not the 15 s budget.
    expect(res.challenge?.waitedMs).toBeGreaterThanOrEqual(6_000);
  });

  it('auto mode answers an error status from the fetch engine without rendering it', async () => {
    const path = fresh('/challenge');
    const res = await renderer.render({ url: `${site.url}${path}` });
    expect(res.engine).toBe('fetch');
    expect(res.statusCode).toBe(503);
    expect(site.requests(path)).toBe(1);
  });
});
