/**
 * DOCX bytes → HTML (mammoth: headings from the Heading styles, paragraphs, lists, tables, links)
 * + metadata from the package's core properties (docProps/core.xml). Every part is inflated by
 * BoundedZip under the inflation limits: mammoth reads the parts it needs through it and never
 * unzips the file itself.
 */
import { DocumentUnreadableError, ServiceError } from '@wcs/errors';
import { BoundedZip } from './bounded-zip';
import type { ConvertedDocument, DocumentMetadata } from './document.types';
import { DEFAULT_INFLATE_LIMITS, type InflateLimits } from './inflate-budget';

/**
 * mammoth (~800 KB of JavaScript with its dependencies) loads with the first DOCX: every worker
 * imports this package on its main thread, where no document is ever converted.
 */
function mammothLibrary(): typeof import('mammoth') {
  return require('mammoth');
}

/** OLE compound files: an encrypted OOXML package (or a legacy .doc), not a ZIP. */
const CFB = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** End of a ZIP's central directory: a ZIP without it was cut short. */
const EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const LABEL = 'The Word document';

function xmlText(xml: string, tag: string): string | null {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`).exec(xml);
  const v = m?.[1]
    ?.replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
  return v ? v : null;
}

async function coreProperties(zip: BoundedZip): Promise<Omit<DocumentMetadata, 'pages'>> {
  const xml = zip.has('docProps/core.xml') ? (await zip.read('docProps/core.xml')).toString('utf8') : '';
  const created = xmlText(xml, 'dcterms:created');
  const time = created ? new Date(created) : null;
  return {
    title: xmlText(xml, 'dc:title'),
    author: xmlText(xml, 'dc:creator'),
    createdAt: time && !Number.isNaN(time.getTime()) ? time.toISOString() : null,
  };
}

/** The opened-archive interface mammoth's `openZip` takes as `{ file }` (its own JSZip wrapper's). */
function mammothArchive(zip: BoundedZip) {
  const readOnly = () => Promise.reject(new Error('the archive is read-only'));
  return {
    exists: (name: string) => zip.has(name),
    read: async (name: string, encoding?: string) => {
      const bytes = await zip.read(name);
      if (encoding === 'base64') return bytes.toString('base64');
      return encoding ? new TextDecoder(encoding).decode(bytes) : bytes;
    },
    write: readOnly,
    toArrayBuffer: readOnly,
  };
}

/** A limit passed is TARGET_TOO_LARGE as thrown; anything else the archive's readers throw is damage. */
function unreadable(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  return new DocumentUnreadableError('corrupt', 'The Word file is damaged and cannot be read');
}

export async function convertDocx(
  bytes: Uint8Array,
  limits: InflateLimits = DEFAULT_INFLATE_LIMITS,
): Promise<ConvertedDocument> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (CFB.every((b, i) => buf[i] === b))
    throw new DocumentUnreadableError(
      'encrypted',
      'The Word file is password-protected (or a legacy .doc) and cannot be read',
    );
  if (!buf.subarray(-65_557).includes(EOCD))
    throw new DocumentUnreadableError('truncated', 'The Word file is truncated (its end is missing)');
  let zip: BoundedZip;
  try {
    zip = await BoundedZip.open(buf, limits, LABEL);
  } catch (err) {
    throw unreadable(err);
  }
  try {
    if (!zip.has('word/document.xml'))
      throw new DocumentUnreadableError('corrupt', 'The file is a ZIP archive but not a Word document');
    let html: string;
    try {
      // mammoth's types name only path/buffer input; its openZip takes an opened archive as `file`.
      const input = { file: mammothArchive(zip) } as unknown as { buffer: Buffer };
      html = (await mammothLibrary().convertToHtml(input)).value;
    } catch (err) {
      throw unreadable(err);
    }
    const core = await coreProperties(zip).catch((err: unknown) => {
      if (err instanceof ServiceError) throw err;
      return { title: null, author: null, createdAt: null };
    });
    return { html, metadata: { ...core, pages: null } };
  } finally {
    zip.close();
  }
}
