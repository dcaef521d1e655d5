import { readFileSync } from 'node:fs';

const TOKEN = /[\p{L}\p{N}_]+/gu;
const tokens = (s) => (s || '').match(TOKEN) || [];
function sh(t) {
  const x = tokens(t);
  const m = new Map();
  for (let i = 0; i < Math.max(1, x.length - 3); i++) {
    const k = x.slice(i, i + 4).join(' ');
    if (k) m.set(k, (m.get(k) || 0) + 1);
  }
  return m;
}
const g = JSON.parse(readFileSync('../shared/bench/article-extraction/ground-truth.json', 'utf8'));
const p = JSON.parse(readFileSync(process.argv[2] || 'bench/out/article.json', 'utf8'));
const rows = [];
for (const id in g) {
  const a = sh(g[id].articleBody),
    b = sh(p[id]?.articleBody);
  let tp = 0,
    fp = 0,
    fn = 0;
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k) || 0,
      y = b.get(k) || 0;
    tp += Math.min(x, y);
    fp += Math.max(0, y - x);
    fn += Math.max(0, x - y);
  }
  rows.push([id, tp / (tp + fp || 1), tp / (tp + fn || 1), g[id].url]);
}
rows.sort((a, b) => Math.min(a[1], a[2]) - Math.min(b[1], b[2]));
for (const r of rows.slice(0, +process.argv[3] || 25))
  console.log(r[0].slice(0, 12), r[1].toFixed(2), r[2].toFixed(2), r[3]);
