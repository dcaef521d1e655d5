/**
 * DOCX bytes → HTML (mammoth: headings from the Heading styles, paragraphs, lists, tables, links)
 * + metadata from the package's core properties (docProps/core.xml).
 */
import { DocumentUnreadableError } from '@wcs/errors';
import type JSZip from 'jszip';
import type { ConvertedDocument, DocumentMetadata } from './document.types';

/**
 * JSZip and mammoth (~800 KB of JavaScript with their dependencies) load with the first DOCX:
 * every worker imports this package on its main thread, where no document is ever converted.
 */
function docxLibraries(): { JSZip: typeof import('jszip'); mammoth: typeof import('mammoth') } {
  return { JSZip: require('jszip'), mammoth: require('mammoth') };
}

/** OLE compound files: an encrypted OOXML package (or a legacy .doc), not a ZIP. */
const CFB = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** End of a ZIP's central directory: a ZIP without it was cut short. */
const EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

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

async function coreProperties(zip: JSZip): Promise<Omit<DocumentMetadata, 'pages'>> {
  const xml = (await zip.file('docProps/core.xml')?.async('string')) ?? '';
  const created = xmlText(xml, 'dcterms:created');
  const time = created ? new Date(created) : null;
  return {
    title: xmlText(xml, 'dc:title'),
    author: xmlText(xml, 'dc:creator'),
    createdAt: time && !Number.isNaN(time.getTime()) ? time.toISOString() : null,
  };
}

export async function convertDocx(bytes: Uint8Array): Promise<ConvertedDocument> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (CFB.every((b, i) => buf[i] === b))
    throw new DocumentUnreadableError(
      'encrypted',
      'The Word file is password-protected (or a legacy .doc) and cannot be read',
    );
  if (!buf.subarray(-65_557).includes(EOCD))
    throw new DocumentUnreadableError('truncated', 'The Word file is truncated (its end is missing)');
  const { JSZip: Zip, mammoth } = docxLibraries();
  let zip: JSZip;
  try {
    zip = await Zip.loadAsync(buf);
  } catch {
    throw new DocumentUnreadableError('corrupt', 'The Word file is damaged and cannot be read');
  }
  if (!zip.file('word/document.xml'))
    throw new DocumentUnreadableError('corrupt', 'The file is a ZIP archive but not a Word document');
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: buf })).value;
  } catch {
    throw new DocumentUnreadableError('corrupt', 'The Word file is damaged and cannot be read');
  }
  const core = await coreProperties(zip).catch(() => ({ title: null, author: null, createdAt: null }));
  return { html, metadata: { ...core, pages: null } };
}
