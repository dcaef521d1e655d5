import { ApiError, request, setCsrfToken } from './api-client';
import type { SessionInfo } from './types';

const SESSION_PATH = '/dashboard/api/session';

/** The live session, or null when the cookie is missing or expired (401). */
export async function loadSession(): Promise<SessionInfo | null> {
  try {
    const { data } = await request<{ data: SessionInfo }>(SESSION_PATH, { quiet401: true });
    setCsrfToken(data.csrfToken);
    return data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** Exchanges the key for an HttpOnly cookie; the key itself is never stored by the page. */
export async function signIn(apiKey: string): Promise<SessionInfo> {
  const { data } = await request<{ data: SessionInfo }>(SESSION_PATH, {
    method: 'POST',
    body: { apiKey },
    quiet401: true,
  });
  setCsrfToken(data.csrfToken);
  return data;
}

export async function signOut(): Promise<void> {
  try {
    await request(SESSION_PATH, { method: 'DELETE', quiet401: true });
  } finally {
    setCsrfToken(null);
  }
}
