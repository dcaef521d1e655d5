/**
 * How the dashboard names a page's verdict (`metadata.verdict`). Pages that fail (blocked,
 * soft-404, error-page) have no document, so only delivered kinds are shown as badges; an
 * unknown value (a newer server) is shown as it came, as text.
 */
const LABELS: Readonly<Record<string, string>> = {
  content: 'Content',
  parked: 'Parked domain',
  'login-wall': 'Login wall',
  empty: 'Empty page',
  blocked: 'Blocked',
  'soft-404': 'Not found (soft 404)',
  'error-page': 'Error page',
};

export function verdictLabel(verdict: string): string {
  return LABELS[verdict] ?? verdict;
}
