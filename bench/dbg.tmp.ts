import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { processHtml } from '../packages/content/src';

const id = process.argv[2]!;
const dir = '../shared/bench/article-extraction';
const g = JSON.parse(readFileSync(`${dir}/ground-truth.json`, 'utf8'));
const full = Object.keys(g).find((k) => k.startsWith(id))!;
const html = gunzipSync(readFileSync(`${dir}/html/${full}.html.gz`)).toString('utf8');
const r = processHtml(html, { url: g[full].url, formats: ['text'] });
console.log('PRED:', r.text.slice(0, +(process.argv[3] ?? 800)));
console.log('\nTRUTH:', g[full].articleBody.slice(0, 400));
