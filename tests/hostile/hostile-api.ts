/** The service's HTTP API as the hostile cells call it: JSON in, status + JSON + elapsed ms out. */

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
  ms: number;
}

export interface Api {
  baseUrl: string;
  auth: { Authorization: string };
}

export async function call(
  api: Api,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  timeoutMs = 180_000,
): Promise<ApiAnswer> {
  const started = Date.now();
  const res = await fetch(`${api.baseUrl}${path}`, {
    method,
    headers: { ...api.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { raw: text.slice(0, 200) };
  }
  return { status: res.status, body: parsed, ms: Date.now() - started };
}

/** Polls `GET path` until `done(body)` holds or the deadline passes (then the last answer). */
export async function pollGet(
  api: Api,
  path: string,
  done: (body: Record<string, unknown>) => boolean,
  deadlineMs: number,
  everyMs = 250,
): Promise<{ answer: ApiAnswer; finished: boolean }> {
  const end = Date.now() + deadlineMs;
  let answer = await call(api, 'GET', path);
  while (!done(answer.body) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, everyMs));
    answer = await call(api, 'GET', path);
  }
  return { answer, finished: done(answer.body) };
}

/** The page was cut (caps, time budget): the document's `data.warning` (the contract's place). */
export function warningOf(body: Record<string, unknown>): string | undefined {
  const w = (body.data as Record<string, unknown> | undefined)?.warning;
  return typeof w === 'string' ? w : undefined;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
