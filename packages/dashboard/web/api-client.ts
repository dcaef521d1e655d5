/**
 * The one fetch wrapper: same-origin cookie, X-CSRF-Token on every unsafe method, JSON errors thrown
 * as ApiError. A 401 means the session is gone, so it also tells the app to show the sign-in form.
 */

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let csrfToken: string | null = null;
let onUnauthorized: () => void = () => {};

/** The token lives in memory only; a reload asks GET /dashboard/api/session for it again. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

interface RequestOptions {
  method?: string;
  body?: unknown;
  /** Sign-in itself answers 401 for a wrong key: that is an error to show, not a lost session. */
  quiet401?: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Calls `path` and returns the parsed JSON body (the whole envelope, `{ success, data, … }`). */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ApiError('The service could not be reached', 0, 'NETWORK_ERROR');
  }
  let parsed: unknown = null;
  const text = await response.text();
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!response.ok) {
    const message =
      isRecord(parsed) && typeof parsed.error === 'string' ? parsed.error : `HTTP ${response.status}`;
    const code = isRecord(parsed) && typeof parsed.code === 'string' ? parsed.code : 'HTTP_ERROR';
    if (response.status === 401 && !options.quiet401) onUnauthorized();
    throw new ApiError(message, response.status, code);
  }
  return parsed as T;
}

/** GET/POST helpers for the common `{ success, data }` envelope. */
export async function getData<T>(path: string): Promise<T> {
  return (await request<{ data: T }>(path)).data;
}

export async function sendData<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await request<{ data: T }>(path, { method, body })).data;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
