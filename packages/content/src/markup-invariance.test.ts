/**
 * Property: the same page re-rendered with different markup gives the same monitor hash
 * (`cleanMarkdownForHash` of the main-content markdown), so a monitor never fires for a page
 * whose content did not change.
 *
 * Pages: the sample vendored in packages/content/test-data/bench-sample (20 article-extraction pages, 42 WCXB dev
 * pages, six of each page type); with BENCH_DIR set to the full sets, every article-extraction
 * page and a fixed sample of 300 WCXB dev pages (every fifth file in name order). For each page fast-check draws several rewrite plans
 * from a fixed seed; each plan is a seeded, deterministic rewrite (markup-rewrite.ts):
 * neutral class tokens added, hashed CSS-module suffixes renamed (consistently), ids, data-* and
 * style attributes added, attribute order/quoting/tag case changed, indentation and line breaks
 * between blocks and inside text changed, comments added, runs of words wrapped in
 * span/b/strong/em/i.
 *
 * What is not rewritten, on purpose: class and id names a page chose with meaning are never
 * removed or renamed to other words ("sidebar", "byline", "article-body" are boilerplate and
 * content signals the extractor reads; removing them changes what the page says about itself),
 * and nothing inside pre/code/textarea, raw-text elements, <head>, <noscript> or <template>.
 *
 * The WCXB sample runs in markup-invariance.wcxb.test.ts and .wcxb2.test.ts (half each, so
 * jest can run the files in parallel). A negative control checks that the property can fail: deleting one
 * word of visible text must change the hash.
 */
import { processHtml } from './index';
import {
  articlePages,
  checkPages,
  hashOf,
  REWRITES_PER_PAGE,
  report,
  SEED,
} from './test-support/markup-invariance';
import { NO_REWRITE, rewriteMarkup } from './test-support/markup-rewrite';

describe('markup-only rewrites keep the monitor hash (property, seeded)', () => {
  it('article-extraction: every page', () => {
    const t0 = Date.now();
    const o = checkPages(articlePages(), SEED);
    report('article-extraction', o, Date.now() - t0);
    expect(o.pages).toBeGreaterThanOrEqual(20);
    expect(o.rewrites).toBeGreaterThanOrEqual(o.pages * REWRITES_PER_PAGE);
    expect(o.failures).toEqual([]);
  }, 120_000);

  it('negative control: removing one word of content changes the hash', () => {
    let checked = 0;
    for (const p of articlePages().slice(0, 20)) {
      const base = hashOf(p.html, p.url);
      const same = rewriteMarkup(p.html, NO_REWRITE);
      // runs of words from the body text (not the title line); the first one a text node holds
      // loses a word wherever it occurs
      const runs = processHtml(p.html, { url: p.url, formats: ['text'] })
        .text.split('\n')
        .slice(1)
        .flatMap((l) => l.match(/[A-Za-z]{6,} [A-Za-z]{2,} [A-Za-z]{2,}/g) ?? []);
      for (const run of runs) {
        const edited = rewriteMarkup(p.html, NO_REWRITE, { from: run, to: run.slice(run.indexOf(' ') + 1) });
        if (edited === same) continue;
        expect(hashOf(edited, p.url)).not.toBe(base);
        checked++;
        break;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });
});
