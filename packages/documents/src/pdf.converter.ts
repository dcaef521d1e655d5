/**
 * PDF bytes → HTML + metadata, from the text layer (pdfjs-dist, no worker thread of its own: the
 * caller already runs in the content pool's thread). Pages past `maxPages` are not read.
 */
import { DocumentUnreadableError } from '@wcs/errors';
import type { ConvertedDocument, DocumentMetadata } from './document.types';
import { escapeAttribute } from './html-escape';
import { DEFAULT_INFLATE_LIMITS, type InflateLimits } from './inflate-budget';
import { type OcrOptions, ocrHtml, ocrPages, ocrUsable } from './ocr.engine';
import { checkPdfInflation } from './pdf-inflate-guard';
import { bodySize, type PdfLine, pageHtml, pageLines } from './pdf-layout';
import { hostBytes, loadPdfjs, type PdfDocument, standardFontDataUrl } from './pdfjs.loader';
import { dropRunningLines } from './running-lines';

export const NO_TEXT_LAYER = 'NO_TEXT_LAYER';

/** A complete PDF ends with %%EOF (give or take trailing whitespace/junk): a cut one does not. */
function endsWithEof(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(-2048);
  return tail.includes('%%EOF');
}

/** A PDF that ends well (checked first: a cut one is `truncated`) but pdfjs cannot read. */
function unreadable(err: unknown): DocumentUnreadableError {
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'PasswordException')
    return new DocumentUnreadableError('encrypted', 'The PDF is password-protected and cannot be read');
  return new DocumentUnreadableError('corrupt', 'The PDF is damaged and cannot be read');
}

/** PDF dates: D:YYYYMMDDHHmmSS+HH'mm' (every part after the year optional). */
export function pdfDate(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/.exec(
    raw.trim(),
  );
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', tz, th = '00', tm = '00'] = m;
  const zone = !tz || tz === 'Z' || tz === 'z' ? 'Z' : `${tz}${th}:${tm}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function infoString(info: Record<string, unknown>, key: string): string | null {
  const v = info[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

export interface PdfOptions {
  onlyMainContent: boolean;
  maxPages: number;
  /** Optional OCR of pages without a text layer (off, or tools missing: NO_TEXT_LAYER). */
  ocr?: OcrOptions;
  /**
   * The caller hands the bytes over: pdfjs may take their buffer (it transfers it to its worker
   * side, detaching the caller's view) instead of a copy. The content thread does, for its own
   * transferred bytes; a 50 MB PDF then costs one copy less.
   */
  consumeBytes?: boolean;
  /** Limits of the Flate streams the text layer decodes (checkPdfInflation); default DEFAULT_INFLATE_LIMITS. */
  inflateLimits?: InflateLimits;
}

const HostUint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;

/** pdfjs uses an array of this realm that fills its buffer as is (a Buffer it refuses). */
function usableAsIs(bytes: Uint8Array): boolean {
  return (
    bytes instanceof HostUint8Array &&
    !Buffer.isBuffer(bytes) &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength
  );
}

/** OCR of the pages that have no text layer, as HTML by page number. */
async function ocrMissingPages(
  bytes: Uint8Array,
  numbers: number[],
  ocr: OcrOptions,
): Promise<{ html: Map<number, string>; failed: boolean }> {
  try {
    const texts = await ocrPages(bytes, numbers, ocr);
    return { html: new Map(numbers.map((n) => [n, ocrHtml(texts.get(n) ?? '')])), failed: false };
  } catch {
    if (ocr.signal?.aborted) throw ocr.signal.reason;
    return { html: new Map(), failed: true }; // a tool error or the deadline: answered as without OCR
  }
}

export async function convertPdf(bytes: Uint8Array, o: PdfOptions): Promise<ConvertedDocument> {
  if (!endsWithEof(bytes))
    throw new DocumentUnreadableError('truncated', 'The PDF is truncated (its end is missing)');
  // Before pdfjs, which would inflate a bomb stream whole: the limits stop it at the first chunk past them.
  await checkPdfInflation(bytes, o.inflateLimits ?? DEFAULT_INFLATE_LIMITS);
  const ocr = ocrUsable(o.ocr) ? o.ocr : undefined;
  // OCR reads the bytes again after pdfjs: then pdfjs gets a copy.
  const handOver = o.consumeBytes === true && ocr === undefined && usableAsIs(bytes);
  const task = loadPdfjs().getDocument({
    data: handOver ? bytes : hostBytes(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
    standardFontDataUrl: standardFontDataUrl(),
  });
  let doc: PdfDocument;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    throw unreadable(err);
  }
  try {
    const info = ((await doc.getMetadata().catch(() => ({ info: {} }))).info ?? {}) as Record<
      string,
      unknown
    >;
    const pages = doc.numPages;
    const read = Math.min(pages, Math.max(1, o.maxPages));
    let lines: PdfLine[][] = [];
    for (let n = 1; n <= read; n++) {
      let page: Awaited<ReturnType<PdfDocument['getPage']>>;
      try {
        page = await doc.getPage(n);
      } catch (err) {
        throw unreadable(err);
      }
      lines.push(pageLines((await page.getTextContent()).items));
      page.cleanup();
    }
    const metadata: DocumentMetadata = {
      title: infoString(info, 'Title'),
      author: infoString(info, 'Author'),
      pages,
      createdAt: pdfDate(info.CreationDate),
    };
    const warnings: string[] = [];
    if (read < pages)
      warnings.push(`The PDF has ${pages} pages; only the first ${read} were read (page cap ${read}).`);
    // Pages without a text layer (scanned): OCR when usable, else a wholly scanned PDF is NO_TEXT_LAYER.
    const missing = lines.flatMap((p, i) => (p.length === 0 ? [i + 1] : []));
    const scanned = missing.length === lines.length;
    const ocred = ocr && missing.length > 0 ? await ocrMissingPages(bytes, missing, ocr) : undefined;
    if (ocred && !ocred.failed)
      warnings.push(
        scanned
          ? `OCR: ${missing.length} pages read by tesseract (the PDF has no text layer).`
          : `OCR: ${missing.length} of ${lines.length} pages read by tesseract (they have no text layer).`,
      );
    if (!scanned && ocred?.failed)
      warnings.push(
        `OCR failed: ${missing.length} of ${lines.length} pages have no text layer and were left empty.`,
      );
    if (scanned && (!ocred || ocred.failed)) {
      warnings.push(
        `${NO_TEXT_LAYER}: the PDF has no text layer (scanned pages?); its text was not extracted${ocred?.failed ? ' (OCR failed)' : ''}.`,
      );
      return { html: '', metadata, warning: warnings.join(' ') };
    }
    if (o.onlyMainContent) lines = dropRunningLines(lines);
    const body = bodySize(lines);
    const html = lines
      .map(
        (p, i) =>
          `<hr data-page="${escapeAttribute(String(i + 1))}">\n${ocred?.html.get(i + 1) ?? pageHtml(p, body)}`,
      )
      .join('\n');
    return { html, metadata, ...(warnings.length > 0 ? { warning: warnings.join(' ') } : {}) };
  } catch (err) {
    if (err instanceof DocumentUnreadableError || o.ocr?.signal?.aborted) throw err;
    throw unreadable(err);
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
