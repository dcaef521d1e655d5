/**
 * A Word file whose `word/document.xml` inflates to `inflatedBytes` (a "zip bomb"): ~1 MB per GiB,
 * built without ever holding the inflated part. Its deflate stream repeats one full-flushed block
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
