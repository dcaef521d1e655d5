/** Deterministic formatting (the browser tests compare texts): en-US numbers, UTC times. */

export function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:MM:SS UTC`, or "—" for a missing time. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`
  );
}

/** A signed credit amount: "+1,000" / "-1". */
export function formatAmount(value: number): string {
  return value > 0 ? `+${formatNumber(value)}` : formatNumber(value);
}
