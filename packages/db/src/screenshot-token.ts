/**
 * Capability tokens of screenshot URLs: whoever holds the URL may fetch the PNG without an API key
 * (an `<img>`, a chat message, a vision model), until the screenshot expires.
 *
 * Layout, base64url of 55 bytes (74 characters): version (1) · screenshot id (16, the uuid's bytes)
 * · expiry (6, unix seconds, big-endian) · HMAC-SHA256 of the 23 bytes before it (32). The id is
 * random (uuid v4), the MAC keyed by a per-deployment secret, so a token can be neither guessed nor
 * forged, nor moved to another deployment or another screenshot, nor extended.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 1;
const BODY_BYTES = 1 + 16 + 6;
const MAC_BYTES = 32;
const TOKEN_BYTES = BODY_BYTES + MAC_BYTES;

/** A token as it appears in a URL path (before `.png`). */
export const SCREENSHOT_TOKEN_RE = /^[A-Za-z0-9_-]{74}$/;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ScreenshotTokenClaims {
  id: string;
  expiresAt: Date;
}

/** The token for `id` valid until `expiresAt` (rounded down to the second). */
export function signScreenshotToken(key: Buffer, claims: ScreenshotTokenClaims): string {
  if (!UUID_RE.test(claims.id)) throw new Error('A screenshot id is a uuid');
  const body = Buffer.alloc(BODY_BYTES);
  body.writeUInt8(VERSION, 0);
  Buffer.from(claims.id.replace(/-/g, ''), 'hex').copy(body, 1);
  body.writeUIntBE(Math.floor(claims.expiresAt.getTime() / 1000), 17, 6);
  return Buffer.concat([body, mac(key, body)]).toString('base64url');
}

/**
 * The claims of a token this key signed, or undefined — malformed, another key's, tampered with —
 * without saying which. Expiry is the caller's check (`expiresAt`), as it needs the clock.
 */
export function readScreenshotToken(key: Buffer, token: string): ScreenshotTokenClaims | undefined {
  if (!SCREENSHOT_TOKEN_RE.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  // base64url of 55 bytes has unused low bits in its last character: only the canonical spelling
  // counts, so one token has exactly one URL.
  if (bytes.length !== TOKEN_BYTES || bytes.toString('base64url') !== token) return undefined;
  const body = bytes.subarray(0, BODY_BYTES);
  if (!timingSafeEqual(bytes.subarray(BODY_BYTES), mac(key, body))) return undefined;
  if (body.readUInt8(0) !== VERSION) return undefined;
  const hex = body.subarray(1, 17).toString('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { id, expiresAt: new Date(body.readUIntBE(17, 6) * 1000) };
}

function mac(key: Buffer, body: Buffer): Buffer {
  return createHmac('sha256', key).update(body).digest();
}
