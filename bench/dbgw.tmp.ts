import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Element } from 'domhandler';
import { isChrome, looksUnlikely } from '../packages/content/src/boilerplate.cleaner';
import { computeStats } from '../packages/content/src/content-stats';
import { findFirst, parseHtml } from '../packages/content/src/dom.util';

const id = process.argv[2]!;
const html = gunzipSync(readFileSync(`../shared/bench/wcxb-dev/dev/html/${id}.html.gz`)).toString('utf8');
const doc = parseHtml(html);
const body = findFirst(doc, 'body')!;
const desc = (e: Element) =>
  `${e.name}.${(e.attribs.class ?? '').slice(0, 60)}#${e.attribs.id ?? ''}${e.attribs.role ? ' role=' + e.attribs.role : ''}`;
const stats = computeStats(body);
const min = +(process.argv[4] ?? 200);
const walk = (e: Element, d: number) => {
  for (const c of e.children)
    if ('name' in c) {
      const el = c as Element;
      const s = stats.get(el);
      if (s && s.text > min) {
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
