import { createHash, randomBytes } from 'node:crypto';

/** Keys look like `wcs_` + 40 base62 characters (~238 bits of entropy). */
export const API_KEY_PREFIX = 'wcs_';
const KEY_BODY_LENGTH = 40;
/** Characters of the key shown to humans (and stored): `wcs_` + 8. */
export const API_KEY_DISPLAY_LENGTH = 12;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_RE = /^wcs_[0-9A-Za-z]{40}$/;

/** Crypto-random key body; rejection sampling keeps every character equally likely (no modulo bias). */
export function generateApiKey(): string {
  let body = '';
  while (body.length < KEY_BODY_LENGTH) {
    for (const b of randomBytes(64)) {
      if (b < 248 && body.length < KEY_BODY_LENGTH) body += ALPHABET[b % 62];
    }
  }
  return API_KEY_PREFIX + body;
}

export function isWellFormedApiKey(key: string): boolean {
  return KEY_RE.test(key);
}

/** sha256 hex: keys are long random strings, so a fast unsalted hash is enough (no dictionary to guess). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_DISPLAY_LENGTH);
}
