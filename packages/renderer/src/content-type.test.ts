import { UnsupportedContentTypeError } from '@wcs/errors';
import {
  assertSupportedContentType,
  isSupportedContentType,
  mimeTypeOf,
  sniffContentType,
} from './content-type';

describe('content types', () => {
  it('extracts the lowercased mime type', () => {
    expect(mimeTypeOf('Text/HTML; charset=UTF-8')).toBe('text/html');
    expect(mimeTypeOf(undefined)).toBe('');
  });

  it.each([
    'text/html',
    'application/xhtml+xml',
    'text/plain',
    'text/markdown',
    'application/json',
    'application/ld+json',
    'text/xml',
    'application/xml',
    'application/rss+xml',
  ])('accepts %s', (t) => expect(isSupportedContentType(t)).toBe(true));

  it.each(['image/png', 'application/pdf', 'application/octet-stream', 'video/mp4', 'text/css', ''])(
    'refuses %s with the type in the message',
    (t) => {
      expect(() => assertSupportedContentType(t)).toThrow(UnsupportedContentTypeError);
      if (t) expect(() => assertSupportedContentType(t)).toThrow(t);
    },
  );

  it('sniffs bodies without a Content-Type', () => {
    expect(sniffContentType(Buffer.from('  <!doctype html><p>x'))).toBe('text/html');
    expect(sniffContentType(Buffer.from('<?xml version="1.0"?><rss/>'))).toBe('text/xml');
    expect(sniffContentType(Buffer.from('{"a":1}'))).toBe('application/json');
    expect(sniffContentType(Buffer.from('just words\n'))).toBe('text/plain');
    expect(
      sniffContentType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])),
    ).toBeUndefined();
  });
});
