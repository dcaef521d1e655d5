/**
 * Loads pdfjs-dist (an ES module) through Node's own loader. Node 20.19+ can `require` an ES
 * module, but jest's module registry cannot; `Module._load` is Node's loader in every host (tsx,
 * compiled build, jest), so the same code runs everywhere. Only the slice of the API we use is
 * typed here.
 */
import Module from 'node:module';
import path from 'node:path';

export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL?: boolean;
}

export interface PdfPage {
  getTextContent(): Promise<{ items: Array<PdfTextItem | { type: string }> }>;
  cleanup(): boolean;
}

export interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
  getMetadata(): Promise<{ info: unknown }>;
  destroy(): Promise<void>;
}

interface PdfLoadingTask {
  promise: Promise<PdfDocument>;
  destroy(): Promise<void>;
}

export interface Pdfjs {
  getDocument(params: Record<string, unknown>): PdfLoadingTask;
}

type NodeLoad = (request: string, parent: null, isMain: boolean) => unknown;

let pdfjs: Pdfjs | undefined;

export function loadPdfjs(): Pdfjs {
  if (pdfjs) return pdfjs;
  const load = (Module as unknown as { _load: NodeLoad })._load;
  pdfjs = load(require.resolve('pdfjs-dist/legacy/build/pdf.mjs'), null, false) as Pdfjs;
  return pdfjs;
}

/** Font data for the 14 standard fonts, so pdfjs does not warn (and fall back) on them. */
export function standardFontDataUrl(): string {
  return `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}${path.sep}`;
}

/**
 * pdfjs checks `instanceof Uint8Array` against its own realm; under jest, test code runs in
 * another realm, so the bytes are copied into an array of Node's realm (Buffer's parent class).
 * The copy also keeps the caller's bytes intact (pdfjs may take ownership of what it is given).
 */
export function hostBytes(bytes: Uint8Array): Uint8Array {
  const HostUint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;
  return new HostUint8Array(bytes);
}
