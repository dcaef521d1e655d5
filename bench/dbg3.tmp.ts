import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Element } from 'domhandler';
import { isChrome, looksUnlikely } from '../packages/content/src/boilerplate.cleaner';
import { computeStats } from '../packages/content/src/content-stats';
import { findFirst, parseHtml } from '../packages/content/src/dom.util';

const id = process.argv[2]!;
const dir = '../shared/bench/article-extraction';
const g = JSON.parse(readFileSync(`${dir}/ground-truth.json`, 'utf8'));
const full = Object.keys(g).find((k) => k.startsWith(id))!;
const html = gunzipSync(readFileSync(`${dir}/html/${full}.html.gz`)).toString('utf8');
const doc = parseHtml(html);
const body = findFirst(doc, 'body')!;
const desc = (e: Element) => `${e.name}.${e.attribs.class ?? ''}#${e.attribs.id ?? ''}`;
const stats = computeStats(body);
console.log('body', stats.get(body));
const walk = (e: Element, d: number) => {
  for (const c of e.children)
    if ('name' in c) {
      const el = c as Element;
      const s = stats.get(el);
      if (s && s.text > 200) {
        console.log(
          ' '.repeat(d * 2) + desc(el),
          s.text,
          s.link,
          isChrome(el) ? 'CHROME' : '',
          looksUnlikely(el) ? 'UNLIKELY' : '',
        );
        if (d < +(process.argv[3] ?? 6)) walk(el, d + 1);
      }
    }
};
walk(body, 0);
