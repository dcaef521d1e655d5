/**
 * `Server-Timing` (W3C Server Timing / RFC 8673-style syntax): `name;dur=12.3;desc="…", name2, …`.
 * Parsed tolerantly (any metric names, parameters in any order, quoted strings with commas,
 * missing or bad `dur` = no duration), and summarised per stage.
 */
import { median } from './bench-utils';

/** Metric name -> duration in ms (metrics without a numeric `dur` are left out; repeats add up). */
export function parseServerTiming(header: string | string[] | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (header === undefined) return out;
  const text = Array.isArray(header) ? header.join(',') : header;
  for (const metric of splitOutsideQuotes(text, ',')) {
    const [rawName, ...params] = splitOutsideQuotes(metric, ';');
    const name = rawName?.trim();
    if (!name) continue;
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== 'dur') continue;
      const dur = Number(
        p
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      );
      if (Number.isFinite(dur)) {
        out.set(name, (out.get(name) ?? 0) + dur);
        break;
      }
    }
  }
  return out;
}

function splitOutsideQuotes(s: string, sep: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (quoted && ch === '\\' && i + 1 < s.length) {
      cur += ch + (s[++i] as string);
      continue;
    }
    if (ch === '"') quoted = !quoted;
    if (ch === sep && !quoted) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/**
 * Table lines: each stage's median ms and its share of the summed stage time (`total`, the whole
 * request as the gateway saw it, is shown apart and not summed). Stages in first-seen order.
 */
export function stageTable(samples: Array<Map<string, number>>): string[] {
  const withTimes = samples.filter((s) => s.size > 0);
  if (withTimes.length === 0) return ['no Server-Timing header'];
  const names: string[] = [];
  for (const s of withTimes) for (const n of s.keys()) if (!names.includes(n)) names.push(n);
  const stages = names.filter((n) => n !== 'total');
  const sums = new Map(stages.map((n) => [n, withTimes.reduce((a, s) => a + (s.get(n) ?? 0), 0)]));
  const all = [...sums.values()].reduce((a, b) => a + b, 0);
  const lines = [
    `${withTimes.length}/${samples.length} answers had Server-Timing`,
    '| stage | median ms | share of stage time |',
    '|---|---:|---:|',
  ];
  for (const n of stages) {
    const med = median(withTimes.filter((s) => s.has(n)).map((s) => s.get(n) ?? 0));
    const share = all > 0 ? ((sums.get(n) ?? 0) / all) * 100 : 0;
    lines.push(`| ${n} | ${med.toFixed(1)} | ${share.toFixed(1)} % |`);
  }
  if (stages.length > 0) {
    const stageSum = median(withTimes.map((s) => stages.reduce((a, n) => a + (s.get(n) ?? 0), 0)));
    lines.push(`| (sum of stages) | ${stageSum.toFixed(1)} | 100 % |`);
  }
  if (names.includes('total')) {
    lines.push(
      `| total (as the gateway saw it) | ${median(withTimes.map((s) => s.get('total') ?? 0)).toFixed(1)} | – |`,
    );
  }
  return lines;
}
