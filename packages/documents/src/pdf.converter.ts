/**
 * PDF bytes → HTML + metadata, from the text layer (pdfjs-dist, no worker thread of its own: the
 * caller already runs in the content pool's thread). Pages past `maxPages` are not read.
 */
import { DocumentUnreadableError, type DocumentUnreadableReason } from '@wcs/errors';
import type { ConvertedDocument, DocumentMetadata } from './document.types';
import { escapeAttribute } from './html-escape';
import { type OcrOptions, ocrHtml, ocrPages, ocrUsable } from './ocr.engine';
import { bodySize, type PdfLine, pageHtml, pageLines } from './pdf-layout';
import { hostBytes, loadPdfjs, type PdfDocument, standardFontDataUrl } from './pdfjs.loader';
import { dropRunningLines } from './running-lines';

export const NO_TEXT_LAYER = 'NO_TEXT_LAYER';

/** A complete PDF ends with %%EOF (give or take trailing whitespace/junk): a cut one does not. */
function endsWithEof(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(-2048);
  return tail.includes('%%EOF');
}

function unreadable(err: unknown, bytes: Uint8Array): DocumentUnreadableError {
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'PasswordException')
    return new DocumentUnreadableError('encrypted', 'The PDF is password-protected and cannot be read');
  const reason: DocumentUnreadableReason = endsWithEof(bytes) ? 'corrupt' : 'truncated';
  return new DocumentUnreadableError(
    reason,
    reason === 'truncated'
      ? 'The PDF is truncated (its end is missing)'
      : 'The PDF is damaged and cannot be read',
  );
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
  /** Optional OCR of a PDF without a text layer (off, or tools missing: NO_TEXT_LAYER). */
  ocr?: OcrOptions;
}

export async function convertPdf(bytes: Uint8Array, o: PdfOptions): Promise<ConvertedDocument> {
  if (!endsWithEof(bytes))
    throw new DocumentUnreadableError('truncated', 'The PDF is truncated (its end is missing)');
  const task = loadPdfjs().getDocument({
    data: hostBytes(bytes),
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
    throw unreadable(err, bytes);
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
        throw unreadable(err, bytes);
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
    if (lines.every((p) => p.length === 0)) {
      let ocrFailed = false;
      if (ocrUsable(o.ocr)) {
        const numbers = lines.map((_, i) => i + 1);
        try {
          const texts = await ocrPages(bytes, numbers, o.ocr);
          const html = numbers.map((n) => `<hr data-page="${n}">\n${ocrHtml(texts.get(n) ?? '')}`).join('\n');
          warnings.push(`OCR: ${numbers.length} pages read by tesseract (the PDF has no text layer).`);
          return { html, metadata, warning: warnings.join(' ') };
        } catch {
          if (o.ocr.signal?.aborted) throw o.ocr.signal.reason;
          ocrFailed = true; // a tool error or the deadline: answered as without OCR
        }
      }
      warnings.push(
        `${NO_TEXT_LAYER}: the PDF has no text layer (scanned pages?); its text was not extracted${ocrFailed ? ' (OCR failed)' : ''}.`,
      );
      return { html: '', metadata, warning: warnings.join(' ') };
    }
    if (o.onlyMainContent) lines = dropRunningLines(lines);
    const body = bodySize(lines);
    const html = lines
      .map((p, i) => `<hr data-page="${escapeAttribute(String(i + 1))}">\n${pageHtml(p, body)}`)
      .join('\n');
    return { html, metadata, ...(warnings.length > 0 ? { warning: warnings.join(' ') } : {}) };
  } catch (err) {
    if (err instanceof DocumentUnreadableError || o.ocr?.signal?.aborted) throw err;
    throw unreadable(err, bytes);
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
