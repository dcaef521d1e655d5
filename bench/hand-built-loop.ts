/**
 * What a user would write instead of the service: undici `request` + linkedom `parseHTML` +
 * `@mozilla/readability` + turndown (markdown of the article's `content`), over a list of URLs
 * with at most `concurrency` pages in flight, in this process.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { Agent, request } from 'undici';
import { pool } from './bench-utils';

export interface LoopResult {
  secs: number;
  pages: number;
  /** Pages with markdown (Readability found an article). */
  converted: number;
  /** Non-2xx answers, throws, and pages where Readability gave up. */
  failed: number;
  markdownChars: number;
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });

/** One page: fetch, parse, main content, markdown. Returns the markdown ('' when none). */
export async function handBuiltScrape(url: string, dispatcher: Agent): Promise<string> {
  const res = await request(url, { dispatcher });
  const html = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode} for ${url}`);
  const { document } = parseHTML(html);
  const article = new Readability(document as unknown as Document).parse();
  return article?.content ? turndown.turndown(article.content) : '';
}

export async function runHandBuiltLoop(urls: string[], concurrency: number): Promise<LoopResult> {
  const agent = new Agent({ connections: concurrency });
  let converted = 0;
  let failed = 0;
  let markdownChars = 0;
  const t0 = performance.now();
  try {
    await pool(urls, concurrency, async (u) => {
      try {
        const md = await handBuiltScrape(u, agent);
        if (md) {
          converted++;
          markdownChars += md.length;
        } else failed++;
      } catch {
        failed++;
      }
    });
  } finally {
    await agent.close();
  }
  return { secs: (performance.now() - t0) / 1000, pages: urls.length, converted, failed, markdownChars };
}
