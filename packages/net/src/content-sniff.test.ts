import { deflateRawSync, gzipSync } from 'node:zlib';
import { binarySignature, mayBeDocument, sniffBinary, sniffContent, sniffDocument } from './content-sniff';

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);
const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1');
const ZIP = Buffer.concat([
  Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]),
  Buffer.from('word/document.xml'),
]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const MP4 = Buffer.from([0, 0, 0, 0x20, ...Buffer.from('ftypisom')]);

/** Deterministic pseudo-random bytes (xorshift), so the test never depends on luck. */
function randomBytes(n: number, seed = 0x9e3779b9): Buffer {
  const out = Buffer.alloc(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

describe('sniffContent', () => {
  it.each([
    ['PNG', PNG, 'image/png'],
    ['PDF', PDF, 'application/pdf'],
    ['ZIP', ZIP, 'application/zip'],
    ['JPEG', JPEG, 'image/jpeg'],
    ['MP4', MP4, 'video/mp4'],
    ['gzip', gzipSync('<html>hello</html>'), 'application/gzip'],
  ])('%s declared as text/html is binary, with its real type', (_name, bytes, mime) => {
    expect(sniffContent(bytes, 'text/html; charset=utf-8')).toEqual({
      mime,
      binary: true,
      reason: 'signature',
    });
    expect(binarySignature(bytes)).toBe(mime);
  });

  it('random bytes declared as HTML, plain text or nothing are binary', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const bytes = randomBytes(4096, seed);
      for (const ct of ['text/html', 'text/plain', undefined])
        expect(sniffContent(bytes, ct).binary).toBe(true);
    }
    expect(sniffBinary(deflateRawSync(Buffer.from('x'.repeat(1000) + 'yz'.repeat(500))))).toBe(true);
  });

  it('a declared binary type stays binary without looking at the bytes', () => {
    expect(sniffContent(Buffer.from('<html>'), 'image/png')).toEqual({
      mime: 'image/png',
      binary: true,
      reason: 'declared-binary',
    });
  });

  it('text in odd charsets is text', () => {
    const latin = Buffer.from('<p>caf\xe9 d\xe9j\xe0 \x93vu\x94</p>', 'latin1');
    expect(sniffContent(latin, 'text/html; charset=windows-1252')).toEqual({
      mime: 'text/html',
      binary: false,
    });
    expect(sniffContent(latin, 'text/html; charset=x-unknown-thing').binary).toBe(false);
    const sjis = Buffer.from([0x3c, 0x70, 0x3e, 0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x3c, 0x2f, 0x70, 0x3e]);
    expect(sniffContent(sjis, 'text/html').binary).toBe(false);
    const utf16le = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('<html><p>héllo</p></html>', 'utf16le'),
    ]);
    expect(sniffContent(utf16le, 'text/html').binary).toBe(false);
    const utf16be = Buffer.from([0xfe, 0xff, 0x00, 0x3c, 0x00, 0x70, 0x00, 0x3e]);
    expect(sniffContent(utf16be, undefined).binary).toBe(false);
    // UTF-16 declared in the header, no BOM: the NULs are the charset's, not binary data.
    expect(sniffContent(Buffer.from('<p>hi</p>', 'utf16le'), 'text/html; charset=UTF-16LE').binary).toBe(
      false,
    );
    const utf8Bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<!doctype html><p>ok')]);
    expect(sniffContent(utf8Bom, undefined)).toEqual({ mime: 'text/html', binary: false });
  });

  it('a lone stray control byte in a text page is tolerated, a NUL is not', () => {
    const page = `<html><body>${'lorem ipsum '.repeat(60)}</body></html>`;
    expect(sniffContent(Buffer.from(`${page.slice(0, 100)}\x0b${page.slice(100)}`), 'text/html').binary).toBe(
      false,
    );
    expect(sniffContent(Buffer.from(`${page.slice(0, 100)}\x00${page.slice(100)}`), 'text/html').binary).toBe(
      true,
    );
  });

  it('English text starting like a signature is text ("BZh", "ID3" needs the exact bytes)', () => {
    expect(sniffContent(Buffer.from('BZh, said the bee.'), 'text/plain').binary).toBe(false);
    expect(sniffContent(Buffer.from('BM is a company'), undefined).binary).toBe(false);
  });

  it('guesses the text type when none is declared', () => {
    expect(sniffContent(Buffer.from('  <!doctype html><p>x'), undefined).mime).toBe('text/html');
    expect(sniffContent(Buffer.from('<?xml version="1.0"?><rss/>'), undefined).mime).toBe('text/xml');
    expect(sniffContent(Buffer.from('{"a":1}'), '').mime).toBe('application/json');
    expect(sniffContent(Buffer.from('just words\n'), undefined).mime).toBe('text/plain');
    expect(sniffContent(Buffer.alloc(0), undefined)).toEqual({ mime: 'text/plain', binary: false });
  });
});

describe('sniffDocument', () => {
  const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  /** A ZIP local file header naming `name` (sizes zero, as with a data descriptor), then `data`. */
  const zipEntry = (name: string, data: Uint8Array = Buffer.alloc(0)): Buffer => {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    return Buffer.concat([header, Buffer.from(name), data]);
  };
  const docx = Buffer.concat([
    zipEntry('[Content_Types].xml', deflateRawSync(Buffer.from('<Types/>'.repeat(40)))),
    zipEntry('_rels/.rels', randomBytes(300)),
    zipEntry('word/document.xml'),
  ]);
  const xlsx = Buffer.concat([zipEntry('[Content_Types].xml'), zipEntry('xl/workbook.xml')]);

  it.each([
    ['a PDF declared as PDF', PDF, 'application/pdf', 'pdf'],
    ['a PDF served as octet-stream', PDF, 'application/octet-stream', 'pdf'],
    ['a PDF without a type', PDF, undefined, 'pdf'],
    ['a PDF served as text/html', PDF, 'text/html', 'pdf'],
    [
      'a PDF after leading junk, declared binary',
      Buffer.concat([randomBytes(200), PDF]),
      'application/pdf',
      'pdf',
    ],
    ['a DOCX found by its word/ entry, untyped', docx, undefined, 'docx'],
    ['a DOCX served as application/zip', docx, 'application/zip', 'docx'],
    ['a ZIP declared as DOCX', xlsx, `${DOCX_TYPE}; charset=binary`, 'docx'],
    ['an XLSX served as octet-stream', xlsx, 'application/octet-stream', undefined],
    ['a plain ZIP', ZIP.subarray(0, 8), 'application/zip', undefined],
    [
      'an HTML page quoting %PDF-',
      Buffer.from('<html><body>Files start with %PDF-1.7</body>'),
      'text/html',
      undefined,
    ],
    ['an HTML page quoting %PDF-, untyped', Buffer.from('<p>%PDF-1.7 header</p>'), undefined, undefined],
    [
      'an HTML error page declared as PDF',
      Buffer.from('<html>Not found</html>'),
      'application/pdf',
      undefined,
    ],
    ['a PNG', PNG, 'image/png', undefined],
    ['nothing', Buffer.alloc(0), 'application/pdf', undefined],
  ])('%s', (_name, head, type, kind) => {
    expect(sniffDocument(head, type)).toBe(kind);
  });

  it('does not look for %PDF- past the first KiB', () => {
    expect(
      sniffDocument(Buffer.concat([randomBytes(1100), PDF]), 'application/octet-stream'),
    ).toBeUndefined();
  });

  it('knows which declared types may hide a document', () => {
    for (const t of ['', 'application/pdf', DOCX_TYPE, 'application/octet-stream', 'application/zip'])
      expect(mayBeDocument(t)).toBe(true);
    for (const t of ['image/png', 'video/mp4', 'application/x-msdownload', 'text/html'])
      expect(mayBeDocument(t)).toBe(false);
  });
});
