import iconv from 'iconv-lite';
import { charsetFromMarkup, decodeBody, decodeBodyPieces, normalizeCharset, PIECE_BYTES } from './charset';
import { seededRandom } from './test-support/seeded-random';

const latin1 = (s: string) => Buffer.from(s, 'latin1');

describe('decodeBody', () => {
  it('uses the Content-Type charset first', () => {
    const r = decodeBody(latin1('<p>café déjà vu</p>'), 'text/html; charset=ISO-8859-1');
    expect(r.text).toBe('<p>café déjà vu</p>');
    expect(r.charset).toBe('windows-1252'); // WHATWG: latin1 labels mean windows-1252
  });

  it('decodes windows-1252-only bytes (0x80 = €) for iso-8859-1 labels', () => {
    expect(
      decodeBody(Buffer.from([0x80, 0x20, 0x93, 0x78, 0x94]), 'text/plain; charset="iso-8859-1"').text,
    ).toBe('€ “x”');
  });

  it('falls back to the BOM, and strips it', () => {
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo')]);
    expect(decodeBody(utf8, 'text/html')).toEqual({ text: 'héllo', charset: 'utf-8' });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo', 'utf16le')]);
    expect(decodeBody(utf16).text).toBe('héllo');
  });

  it('sniffs <meta charset> and <meta http-equiv> in the first 4 KiB', () => {
    expect(decodeBody(latin1('<html><head><meta charset="iso-8859-1"></head>café</html>')).text).toContain(
      'café',
    );
    const equiv = '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>déjà</p>';
    expect(decodeBody(latin1(equiv), 'text/html').text).toContain('déjà');
  });

  it('ignores a meta charset beyond 4 KiB and defaults to utf-8', () => {
    const late = Buffer.concat([Buffer.from(' '.repeat(5000)), latin1('<meta charset="iso-8859-1">')]);
    expect(charsetFromMarkup(late)).toBeUndefined();
    expect(decodeBody(Buffer.from('naïve ✓')).text).toBe('naïve ✓');
  });

  it('decodes shift_jis and euc-kr', () => {
    const sjis = iconv.encode('<meta charset="shift_jis"><p>日本語のテキスト</p>', 'shift_jis');
    expect(decodeBody(sjis, 'text/html').text).toContain('日本語のテキスト');
    const kr = iconv.encode('한국어', 'euc-kr');
    expect(decodeBody(kr, 'text/plain; charset=euc-kr').text).toBe('한국어');
  });

  it('reads the encoding of an XML declaration', () => {
    const xml = latin1('<?xml version="1.0" encoding="ISO-8859-1"?><r>café</r>');
    expect(decodeBody(xml, 'application/xml').text).toContain('café');
  });

  it('ignores unknown charset labels', () => {
    expect(normalizeCharset('x-made-up')).toBeUndefined();
    expect(decodeBody(Buffer.from('ok ✓'), 'text/html; charset=x-made-up').text).toBe('ok ✓');
  });
});

describe('wrong and unknown charsets decode without a crash', () => {
  it.each([
    ['an unknown label', 'text/html; charset=x-no-such-charset'],
    ['an empty label', 'text/html; charset='],
    ['a quoted garbage label', 'text/html; charset="\u0000;;"'],
    ['utf-7 (ignored: not a web encoding)', 'text/html; charset=utf-7'],
  ])('%s falls back to the markup or utf-8', (_name, header) => {
    const r = decodeBody(Buffer.from('<p>+ADw-script+AD4- héllo</p>'), header);
    expect(r.charset).toBe('utf-8');
    expect(r.text).toBe('<p>+ADw-script+AD4- héllo</p>');
  });

  it('a wrong charset gives mojibake, not an error', () => {
    const r = decodeBody(Buffer.from('<p>héllo</p>'), 'text/html; charset=shift_jis');
    expect(typeof r.text).toBe('string');
    expect(r.text.startsWith('<p>h')).toBe(true);
  });

  it('a BOM wins over a header that says otherwise', () => {
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('café')]);
    expect(decodeBody(utf8, 'text/html; charset=iso-8859-1')).toEqual({ text: 'café', charset: 'utf-8' });
  });

  it('<meta charset=utf-16> in ASCII-readable markup means utf-8', () => {
    expect(decodeBody(Buffer.from('<meta charset="utf-16"><p>héllo</p>')).charset).toBe('utf-8');
  });
});

describe('decodeBodyPieces', () => {
  const SAMPLE = [...'aé€😀中文かな한글<p>\u0000\uFEFF\r\n'];

  it('gives the text decodeBody gives, in non-empty pieces, whatever bytes are cut where', () => {
    const next = seededRandom(7);
    for (let t = 0; t < 1500; t++) {
      let bytes: Buffer;
      if (t % 2 === 0)
        bytes = Buffer.from(Array.from({ length: Math.floor(next() * 120) }, () => Math.floor(next() * 256)));
      else {
        const text = Array.from(
          { length: Math.floor(next() * 60) },
          () => SAMPLE[Math.floor(next() * SAMPLE.length)],
        ).join('');
        bytes = Buffer.from((t % 5 === 1 ? '\uFEFF' : '') + text, 'utf8');
        // A broken sequence somewhere now and then.
        if (t % 3 === 0 && bytes.length > 0) bytes[Math.floor(next() * bytes.length)] = 0xc3;
      }
      const whole = decodeBody(bytes, 'text/html; charset=utf-8').text;
      for (const pieceBytes of [1, 2, 3, 5, 64]) {
        const { pieces, charset } = decodeBodyPieces(bytes, 'text/html; charset=utf-8', pieceBytes);
        expect(charset).toBe('utf-8');
        expect(pieces.join('')).toBe(whole);
        expect(pieces.every((p) => p.length > 0)).toBe(true);
      }
    }
  });

  it('decodes other charsets whole, as decodeBody does (their streaming decoders cut differently)', () => {
    const gb = iconv.encode('中文😀 mixed ascii 中文😀', 'gb18030');
    const { pieces, charset } = decodeBodyPieces(gb, 'text/html; charset=gb18030', 1);
    expect(charset).toBe('gb18030');
    expect(pieces).toEqual([decodeBody(gb, 'text/html; charset=gb18030').text]);
    expect(decodeBodyPieces(Buffer.alloc(0)).pieces).toEqual([]);
  });

  it('cuts a large page into pieces of at most PIECE_BYTES bytes each', () => {
    const page = Buffer.from(`<p>${'é'.repeat(40_000)}${'x'.repeat(60_000)}</p>`, 'utf8');
    const { pieces } = decodeBodyPieces(page);
    expect(pieces.length).toBe(Math.ceil(page.length / PIECE_BYTES));
    expect(pieces.join('')).toBe(page.toString('utf8'));
  });
});
