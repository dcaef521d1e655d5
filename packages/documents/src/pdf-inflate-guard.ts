/**
 * pdf.js inflates a FlateDecode stream whole into one growing buffer (outside the thread's heap cap)
 * when it reads it: a page's content, a font, an object stream. A PDF of 1 MB can hold a content
 * stream of 1 GiB (measured: 256 MiB cost the process ~1.4 GB of RSS and 11 s). So before pdf.js
 * sees the file, every Flate stream it may decode for the text layer — every one but images, which
 * the text layer never decodes — is inflated once here under the document's InflateBudget, counted
 * and dropped. Found by the `stream` keyword, as pdf.js's own recovery does: no xref needed.
 *
 * Not covered: streams whose first filter is not Flate (LZW, a Flate behind ASCII85), and encrypted
 * PDFs opened with the empty password (their streams are only inflatable once decrypted).
 */
import { TargetTooLargeError } from '@wcs/errors';
import { inflateBounded } from './bounded-inflate';
import { InflateBudget, type InflateLimits } from './inflate-budget';

const STREAM = Buffer.from('stream');
const ENDSTREAM = Buffer.from('endstream');
/** A stream's dictionary is this close before its keyword (longer ones are read from here). */
const DICT_WINDOW = 4096;
const OBJ_START = /\d+\s+\d+\s+obj\b/g;
const FLATE_FIRST = /\/Filter\s*\[?\s*\/(?:FlateDecode|Fl)(?![A-Za-z])/;
const IMAGE = /\/Subtype\s*\/Image(?![A-Za-z])/;

/** The dictionary text of the stream whose keyword is at `keyword` (from its `N G obj`). */
function streamDictionary(buf: Buffer, keyword: number): string {
  const head = buf.toString('latin1', Math.max(0, keyword - DICT_WINDOW), keyword);
  let from = 0;
  for (const m of head.matchAll(OBJ_START)) from = m.index;
  return head.slice(from);
}

/**
 * Resolves with the bytes inflated when every checked stream stays within `limits`; rejects with
 * TargetTooLargeError (details name the limit) at the first chunk past one. A stream zlib cannot
 * inflate is left to pdf.js to judge.
 */
export async function checkPdfInflation(bytes: Uint8Array, limits: InflateLimits): Promise<number> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const budget = new InflateBudget(limits, 'The PDF');
  let at = 0;
  for (;;) {
    const keyword = buf.indexOf(STREAM, at);
    if (keyword === -1) break;
    at = keyword + STREAM.length;
    if (keyword >= 3 && buf.toString('latin1', keyword - 3, keyword) === 'end') continue;
    // The keyword ends its line (CRLF or LF); anything else is the word inside some data.
    let start = at;
    if (buf[start] === 0x0d) start++;
    if (buf[start] !== 0x0a) continue;
    start++;
    const end = buf.indexOf(ENDSTREAM, start);
    at = end === -1 ? buf.length : end + ENDSTREAM.length;
    const dict = streamDictionary(buf, keyword);
    if (!FLATE_FIRST.test(dict) || IMAGE.test(dict)) continue;
    // The ratio is of the bytes up to `endstream`; the inflater reads on to its own end (pdf.js
    // may too), so a stream cannot hide its length behind an early `endstream`.
    const cap = budget.partCap((end === -1 ? buf.length : end) - start);
    budget.admit(0, cap);
    let out = 0;
    await inflateBounded(buf.subarray(start), {
      format: 'zlib',
      keep: false,
      onChunk: (n) => {
        out += n;
        budget.count(n, out, cap);
      },
    }).catch((err: unknown) => {
      if (err instanceof TargetTooLargeError) throw err;
    });
  }
  return budget.inflatedBytes;
}
