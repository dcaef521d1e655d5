import { type FaultRow, rowPassed } from '../faults/fault-table';

/** One fault's row: the shared fault checks' outcome. */
export type HostRow = FaultRow;

export const hostRowPassed = (r: HostRow): boolean => rowPassed(r);

const yes = (b: boolean | null) => (b === null ? '—' : b ? 'yes' : 'NO');

/** fault × recovered × lost × billed twice × monitors, as printed by `pnpm test:hosts`. */
export function formatHostTable(rows: HostRow[]): string {
  const header = [
    'fault',
    'recovered in',
    'lost',
    'billed twice',
    'fetched twice',
    'ledger = balances',
    'monitors ok',
    'jobs terminal',
    'result',
  ];
  const body = rows.map((r) => {
    const billed = r.billedTwice ?? 0;
    return [
      r.fault,
      r.recoverMs === null ? '—' : `${(r.recoverMs / 1000).toFixed(1)} s`,
      String(r.lost),
      String(billed),
      String(r.runTwice - billed),
      yes(r.creditsOk),
      yes(r.monitorsScheduled),
      yes(r.terminal),
      rowPassed(r) ? 'pass' : 'FAIL',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]?.length ?? 0)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const out = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)];
  const notes = rows.filter((r) => r.notes.length > 0).map((r) => `- ${r.fault}: ${r.notes.join('; ')}`);
  return [...out, ...(notes.length ? ['', 'Notes:', ...notes] : [])].join('\n');
}
