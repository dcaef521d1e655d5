const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids arrive from URLs and CLI flags; a malformed one is simply "not found", never a SQL error. */
export function isUuid(v: string): boolean {
  return UUID_RE.test(v);
}
