/**
 * Starting the content threads before a burst of pages needs them. A pool idle for a while has no
 * threads (`minThreads: 0`): the first pages of a crawl then wait while every thread loads the
 * pipeline's code (0.5–2 s on two loaded cores). A crawl's start (robots.txt, sitemaps, seeding,
 * the start page) waits on the network and the database meanwhile: loading the threads then puts
 * that time to use.
 */
import type { ContentPool } from './content-pool';

/**
 * Conversions of the sample per thread: one loads the pipeline's code. More would only compete with
 * the crawl's own first pages, which warm the JIT as well as a sample does.
 */
const ROUNDS_PER_THREAD = 1;
/** Its own account in the pool's fair queue: a crawl's first pages are served alongside it. */
const WARM_UP_ACCOUNT = 'content-warm-up';

/** A page of the usual parts (chrome, article, lists, a table, links), ~20 KB. */
export function warmUpSamplePage(): string {
  const para = (i: number) =>
    `<p>Paragraph ${i} of the sample article, with <a href="/article/${i}">a link</a>, <strong>strong</strong> and <em>emphasised</em> words, <code>code</code> and a little more text so the paragraph reads like prose rather than a stub.</p>`;
  const sections = Array.from(
    { length: 8 },
    (_, s) =>
      `<h2 id="s${s}">Section ${s}</h2>${Array.from({ length: 4 }, (_, i) => para(s * 4 + i)).join('')}` +
      `<ul>${Array.from({ length: 5 }, (_, i) => `<li><a href="/topic/${s}-${i}?ref=list">Item ${i}</a></li>`).join('')}</ul>`,
  ).join('');
  const table = `<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody>${Array.from(
    { length: 6 },
    (_, i) => `<tr><td>Row ${i}</td><td>${i * 7}</td></tr>`,
  ).join('')}</tbody></table>`;
  const nav = `<nav><ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/section/${i}">Section ${i}</a></li>`).join('')}</ul></nav>`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sample article</title>' +
    '<meta name="description" content="A sample page"><meta property="og:title" content="Sample article">' +
    '<link rel="canonical" href="https://warm-up.invalid/article"><style>body{font-family:sans-serif}</style>' +
    `<script>window.dataLayer=[];</script></head><body><header>${nav}</header><main><article>` +
    `<h1>Sample article</h1><p class="byline">By A. Writer</p><img src="/hero.jpg" alt="Hero image">` +
    `${sections}${table}<blockquote><p>A quoted line.</p></blockquote><pre><code>const x = 1;</code></pre>` +
    `</article></main><aside><h3>Related</h3>${nav}</aside><footer><p>© Sample</p>${nav}</footer></body></html>`
  );
}

/**
 * Start every thread of `pool` with the sample page (markdown and links, as a crawl page), so its
 * code is loaded. Never rejects: a warm-up that fails leaves the pool as it was.
 */
export async function warmContentThreads(pool: ContentPool): Promise<void> {
  const threads = pool.options.threads;
  if (threads <= 0) return;
  const body = warmUpSamplePage();
  const url = 'https://warm-up.invalid/article';
  const task = {
    body,
    contentType: 'text/html',
    finalUrl: url,
    sourceUrl: url,
    statusCode: 200,
    format: 'markdown' as const,
    onlyMainContent: true,
    links: true,
  };
  // One chain per thread: each keeps one thread busy, so all of them start at once.
  await Promise.all(
    Array.from({ length: threads }, async () => {
      for (let i = 0; i < ROUNDS_PER_THREAD; i++)
        await pool.run(task, undefined, undefined, WARM_UP_ACCOUNT).catch(() => undefined);
    }),
  );
}
