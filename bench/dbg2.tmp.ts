import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Element } from 'domhandler';
import { findFirst, parseHtml } from '../packages/content/src/dom.util';
import { extractMainContent } from '../packages/content/src/main-content.extractor';

const id = process.argv[2]!;
const dir = '../shared/bench/article-extraction';
const g = JSON.parse(readFileSync(`${dir}/ground-truth.json`, 'utf8'));
const full = Object.keys(g).find((k) => k.startsWith(id))!;
const html = gunzipSync(readFileSync(`${dir}/html/${full}.html.gz`)).toString('utf8');
const doc = parseHtml(html);
const body = findFirst(doc, 'body')!;
console.log('body attrs', body.attribs);
const r = extractMainContent(body);
const desc = (e: Element) => `${e.name}.${e.attribs.class ?? ''}#${e.attribs.id ?? ''}`;
for (const c of r.root.children)
  if ('name' in c) console.log('chosen', desc(c as Element), r.stats.get(c as Element));
