import { randomBytes, randomUUID } from 'node:crypto';
import { readScreenshotToken, SCREENSHOT_TOKEN_RE, signScreenshotToken } from './screenshot-token';

const key = randomBytes(32);
const claims = () => ({ id: randomUUID(), expiresAt: new Date('2031-05-06T07:08:09.999Z') });

describe('screenshot tokens', () => {
  test('round trip: 74 URL-safe characters naming the id and the expiry (to the second)', () => {
    const c = claims();
    const token = signScreenshotToken(key, c);
    expect(token).toMatch(SCREENSHOT_TOKEN_RE);
    expect(readScreenshotToken(key, token)).toEqual({
      id: c.id,
      expiresAt: new Date('2031-05-06T07:08:09.000Z'),
    });
    // Random ids: two screenshots never share a token.
    expect(signScreenshotToken(key, claims())).not.toBe(token);
  });

  test('any one character changed, anywhere, is refused', () => {
    const token = signScreenshotToken(key, claims());
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let at = 0; at < token.length; at++) {
      const other = alphabet[(alphabet.indexOf(token[at] as string) + 1) % alphabet.length];
      const changed = `${token.slice(0, at)}${other}${token.slice(at + 1)}`;
      expect(readScreenshotToken(key, changed)).toBeUndefined();
    }
  });

  test('another key (another deployment), a later expiry, a cut or padded token: refused', () => {
    const c = claims();
    const token = signScreenshotToken(key, c);
    expect(readScreenshotToken(randomBytes(32), token)).toBeUndefined();
    // The expiry is under the MAC: a token of the same id with a later expiry cannot be made without the key.
    const later = signScreenshotToken(randomBytes(32), { ...c, expiresAt: new Date('2099-01-01') });
    expect(readScreenshotToken(key, later)).toBeUndefined();
    expect(readScreenshotToken(key, token.slice(0, -1))).toBeUndefined();
    expect(readScreenshotToken(key, `${token}A`)).toBeUndefined();
    expect(readScreenshotToken(key, `${token.slice(0, -2)}==`)).toBeUndefined();
    expect(readScreenshotToken(key, c.id)).toBeUndefined();
    expect(readScreenshotToken(key, '')).toBeUndefined();
  });

  test('a past expiry is carried, not judged (the caller compares with its clock)', () => {
    const past = new Date('2001-01-01T00:00:00Z');
    const token = signScreenshotToken(key, { id: randomUUID(), expiresAt: past });
    expect(readScreenshotToken(key, token)?.expiresAt).toEqual(past);
  });

  test('only uuids are signed', () => {
    expect(() => signScreenshotToken(key, { id: 'x', expiresAt: new Date() })).toThrow(/uuid/);
  });
});
