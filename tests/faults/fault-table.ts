export interface FaultRow {
  fault: string;
  terminal: boolean;
  lost: number;
  runTwice: number;
  /** Of `runTwice`, the charges or refunds beyond one per reference (when the scenario says). */
  billedTwice?: number;
  creditsOk: boolean;
  /** null: not measured (the row failed before it got there). */
  monitorsScheduled: boolean | null;
  recoverMs: number | null;
  notes: string[];
}

export function rowPassed(r: FaultRow): boolean {
  return r.terminal && r.lost === 0 && r.runTwice === 0 && r.creditsOk && r.monitorsScheduled === true;
}

const yes = (b: boolean | null) => (b === null ? '—' : b ? 'yes' : 'NO');

/** The faults × outcome table, as printed at the end of `pnpm test:faults`. */
export function formatFaultTable(rows: FaultRow[]): string {
  const header = [
    'fault',
    'jobs terminal',
    'lost',
    'run twice',
    'credits consistent',
    'monitors scheduled',
    'recovered in',
    'result',
  ];
  const body = rows.map((r) => [
    r.fault,
    yes(r.terminal),
    String(r.lost),
    String(r.runTwice),
    yes(r.creditsOk),
    yes(r.monitorsScheduled),
    r.recoverMs === null ? '—' : `${(r.recoverMs / 1000).toFixed(1)} s`,
    rowPassed(r) ? 'pass' : 'FAIL',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]?.length ?? 0)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const out = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)];
  const notes = rows.filter((r) => r.notes.length > 0).map((r) => `- ${r.fault}: ${r.notes.join('; ')}`);
  return [...out, ...(notes.length ? ['', 'Notes:', ...notes] : [])].join('\n');
}
