/**
 * Decompression bombs made as documents (pdfBomb below). docxBomb: a Word file whose
 * `word/document.xml` inflates to `inflatedBytes` (a "zip bomb"): ~1 MB per GiB, built without
 * ever holding the inflated part. Its deflate stream repeats one full-flushed block
 * of spaces (every block independent, so the same bytes can be written again and again) inside one
 * text run; the rest is the smallest package mammoth reads. `sizes: 'honest'` declares the real
 * size and CRC in the ZIP headers (what zip tools write), `'lying'` declares a small part, so only
 * a reader that counts what it inflates notices.
 */
import zlib from 'node:zlib';

export interface DocxBombOptions {
  /** Bytes `word/document.xml` inflates to (below 4 GiB: no ZIP64). */
  inflatedBytes: number;
  /** What the ZIP headers declare for that part; default honest. */
  sizes?: 'honest' | 'lying';
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const BODY_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t xml:space="preserve">Bomb `;
const BODY_TAIL = '</w:t></w:r></w:p></w:body></w:document>';
const BLOCK_BYTES = 8 * 1024 * 1024;

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

interface ZipPart {
  name: string;
  data: Buffer;
  crc: number;
  size: number;
}

function deflatedPart(name: string, text: string): ZipPart {
  const raw = Buffer.from(text);
  return { name, data: zlib.deflateRawSync(raw), crc: zlib.crc32(raw), size: raw.length };
}

/** The bomb part: head, n full-flushed blocks of spaces, a last partial block, tail. */
function bombPart(inflatedBytes: number, sizes: 'honest' | 'lying'): ZipPart {
  const flush = { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH };
  const head = Buffer.from(BODY_HEAD);
  const tail = Buffer.from(BODY_TAIL);
  const spacesTotal = Math.max(0, inflatedBytes - head.length - tail.length);
  const blocks = Math.floor(spacesTotal / BLOCK_BYTES);
  const spaces = Buffer.alloc(BLOCK_BYTES, 0x20);
  const rest = spaces.subarray(0, spacesTotal - blocks * BLOCK_BYTES);
  const block = zlib.deflateRawSync(spaces, flush);
  const data = Buffer.concat([
    zlib.deflateRawSync(head, flush),
    ...Array.from({ length: blocks }, () => block),
    zlib.deflateRawSync(Buffer.concat([rest, tail]), { level: 9 }),
  ]);
  const size = head.length + blocks * BLOCK_BYTES + rest.length + tail.length;
  if (sizes === 'lying') return { name: 'word/document.xml', data, crc: 0, size: head.length + tail.length };
  let crc = zlib.crc32(head);
  for (let i = 0; i < blocks; i++) crc = zlib.crc32(spaces, crc);
  crc = zlib.crc32(tail, zlib.crc32(rest, crc));
  return { name: 'word/document.xml', data, crc, size };
}

/** A ZIP of deflated parts: local headers and data, central directory, end record. */
function zipOf(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(p.crc >>> 0, 14);
    local.writeUInt32LE(p.data.length, 18);
    local.writeUInt32LE(p.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    central.writeUInt16LE(20, 6); // version needed
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(p.crc >>> 0, 16);
    central.writeUInt32LE(p.data.length, 20);
    central.writeUInt32LE(p.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, p.data);
    centrals.push(central, name);
    offset += local.length + name.length + p.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The text every bomb's paragraph starts with (before its spaces). */
export const DOCX_BOMB_TEXT = 'Bomb';

export function docxBomb(o: DocxBombOptions): Buffer {
  if (o.inflatedBytes >= 2 ** 32) throw new Error('docxBomb: inflatedBytes must stay below 4 GiB');
  return zipOf([
    deflatedPart('[Content_Types].xml', CONTENT_TYPES),
    deflatedPart('_rels/.rels', RELS),
    bombPart(o.inflatedBytes, o.sizes ?? 'honest'),
  ]);
}

export interface PdfBombOptions {
  /** Bytes the page's content stream inflates to. */
  inflatedBytes: number;
  /** Mark the stream as an image XObject (the text layer never decodes it) instead of the page's content. */
  asImage?: boolean;
}

/** The text of the bomb PDF's page (before its spaces). */
export const PDF_BOMB_TEXT = 'Bomb page';

/**
 * A one-page PDF whose content stream (FlateDecode) inflates to `inflatedBytes` of spaces after
 * one line of text: ~1 MB per GiB, built like the Word bomb (zlib header, full-flushed blocks
 * repeated, no checksum: readers of PDFs do not check it). With `asImage` the same stream is an
 * image the page never draws, and the page's content is the text alone.
 */
export function pdfBomb(o: PdfBombOptions): Buffer {
  const flush = { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH };
  const text = Buffer.from(`BT /F1 12 Tf 72 712 Td (${PDF_BOMB_TEXT}) Tj ET\n`);
  const spaces = Buffer.alloc(BLOCK_BYTES, 0x20);
  const total = Math.max(0, o.inflatedBytes - text.length);
  const blocks = Math.floor(total / BLOCK_BYTES);
  const block = zlib.deflateRawSync(spaces, flush);
  const bomb = Buffer.concat([
    Buffer.from([0x78, 0xda]),
    zlib.deflateRawSync(text, flush),
    ...Array.from({ length: blocks }, () => block),
    zlib.deflateRawSync(spaces.subarray(0, total - blocks * BLOCK_BYTES), { level: 9 }),
    Buffer.alloc(4),
  ]);
  const stream = (dict: string, data: Buffer) =>
    Buffer.concat([
      Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`),
      data,
      Buffer.from('\nendstream'),
    ]);
  const plain = zlib.deflateSync(text);
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' +
        '/Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >> >>',
    ),
    o.asImage ? stream('/Filter /FlateDecode', plain) : stream('/Filter /FlateDecode', bomb),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    o.asImage
      ? stream(
          '/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode',
          bomb,
        )
      : stream(
          '/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode',
          zlib.deflateSync(Buffer.from([0])),
        ),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let offset = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(obj);
    offset += obj.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}
