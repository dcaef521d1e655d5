import { readdirSync, readFileSync } from 'node:fs';
import { wordF1 } from '/work/shared/bench/score.mjs';

const dir = '../shared/bench/wcxb-dev/dev/ground-truth';
const p = JSON.parse(readFileSync(process.argv[2] || 'bench/out/wcxb.json', 'utf8'));
const type = process.argv[3];
const n = +(process.argv[4] || 20);
const rows = [];
for (const f of readdirSync(dir)) {
  const g = JSON.parse(readFileSync(dir + '/' + f, 'utf8'));
  const t = g._internal.page_type.primary;
  if (type && t !== type) continue;
  const id = g.file_id;
  const [P, R, F] = wordF1(p[id]?.text || '', g.ground_truth.main_content || '');
  rows.push([id, t, P, R, F, g.url]);
}
const m = (i) => rows.reduce((a, r) => a + r[i], 0) / rows.length;
console.log('P', m(2).toFixed(3), 'R', m(3).toFixed(3), 'F', m(4).toFixed(3));
rows.sort((a, b) => a[4] - b[4]);
for (const r of rows.slice(0, n)) console.log(r[0], r[1], r[2].toFixed(2), r[3].toFixed(2), r[5]);
