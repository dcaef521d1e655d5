import { TargetTooLargeError } from '@wcs/errors';
import { manyPagesPdf, PDF_BOMB_TEXT, pdfBomb, REPORT_PDF, reportPdf } from '@wcs/testing';
import { INFLATE_CHUNK_BYTES } from './bounded-inflate';
import { convertDocument } from './convert-document';
import { DEFAULT_INFLATE_LIMITS } from './inflate-budget';
import { checkPdfInflation } from './pdf-inflate-guard';

const MiB = 1024 * 1024;

describe('checkPdfInflation', () => {
  it('ordinary PDFs pass (these fixtures have no compressed stream)', async () => {
    for (const pdf of [await reportPdf(), await manyPagesPdf(50)])
      expect(await checkPdfInflation(pdf, DEFAULT_INFLATE_LIMITS)).toBe(0);
  });

  it('a content stream past the total stops at the first chunk past it', async () => {
    const cap = 8 * MiB;
    let err: unknown;
    const inflated = await checkPdfInflation(pdfBomb({ inflatedBytes: 64 * MiB }), {
      maxInflatedBytes: cap,
      maxInflateRatio: 10_000,
    }).catch((e: unknown) => {
      err = e;
      return -1;
    });
    expect(inflated).toBe(-1);
    expect(err).toBeInstanceOf(TargetTooLargeError);
    expect((err as TargetTooLargeError).details).toEqual({ maxInflatedBytes: cap });
    expect(err).toHaveProperty('message', expect.stringMatching(/^The PDF .*DOCUMENT_MAX_INFLATED_BYTES/));
  });

  it('a content stream within the limits passes, counted as it inflates', async () => {
    const size = 4 * MiB;
    const inflated = await checkPdfInflation(pdfBomb({ inflatedBytes: size }), {
      maxInflatedBytes: size + INFLATE_CHUNK_BYTES,
      maxInflateRatio: 10_000,
    });
    // zlib stops at the bomb's checksum (pdf.js does not check it): its last chunk is not counted.
    expect(inflated).toBeGreaterThanOrEqual(size - INFLATE_CHUNK_BYTES);
    expect(inflated).toBeLessThanOrEqual(size);
  });

  it('a content stream past its ratio cap is TARGET_TOO_LARGE naming the ratio', async () => {
    const err = await checkPdfInflation(pdfBomb({ inflatedBytes: 64 * MiB }), {
      maxInflatedBytes: 1024 * MiB,
      maxInflateRatio: 100,
    }).catch((e: unknown) => e);
    expect((err as TargetTooLargeError).details).toEqual({ maxInflateRatio: 100 });
  });

  it('an image stream is not checked (the text layer never decodes it)', async () => {
    const bomb = pdfBomb({ inflatedBytes: 64 * MiB, asImage: true });
    const inflated = await checkPdfInflation(bomb, { maxInflatedBytes: 8 * MiB, maxInflateRatio: 100 });
    expect(inflated).toBeLessThan(MiB);
    const out = await convertDocument({
      bytes: bomb,
      kind: 'pdf',
      onlyMainContent: false,
      maxPages: 5,
      inflateLimits: { maxInflatedBytes: 8 * MiB, maxInflateRatio: 100 },
    });
    expect(out.html).toContain(PDF_BOMB_TEXT);
  });
});

describe('convertDocument (pdf) and decompression bombs', () => {
  it('a PDF whose page inflates to 1 GiB is TARGET_TOO_LARGE under the default limits', async () => {
    const err = await convertDocument({
      bytes: pdfBomb({ inflatedBytes: 1024 * MiB }),
      kind: 'pdf',
      onlyMainContent: false,
      maxPages: 5,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetTooLargeError);
    expect((err as TargetTooLargeError).status).toBe(502);
    expect((err as TargetTooLargeError).details).toEqual({
      maxInflatedBytes: DEFAULT_INFLATE_LIMITS.maxInflatedBytes,
    });
  });

  it("the limits are the caller's: a 64 MiB page under an 8 MiB total is TARGET_TOO_LARGE", async () => {
    const err = await convertDocument({
      bytes: pdfBomb({ inflatedBytes: 64 * MiB }),
      kind: 'pdf',
      onlyMainContent: false,
      maxPages: 5,
      inflateLimits: { maxInflatedBytes: 8 * MiB, maxInflateRatio: 10_000 },
    }).catch((e: unknown) => e);
    expect((err as TargetTooLargeError).details).toEqual({ maxInflatedBytes: 8 * MiB });
  });

  it('a small bomb of the same make converts (the bomb is a readable PDF)', async () => {
    const out = await convertDocument({
      bytes: pdfBomb({ inflatedBytes: 512 * 1024 }),
      kind: 'pdf',
      onlyMainContent: false,
      maxPages: 5,
    });
    expect(out.html).toContain(PDF_BOMB_TEXT);
  });

  it('the report PDF converts as before', async () => {
    const out = await convertDocument({
      bytes: await reportPdf(),
      kind: 'pdf',
      onlyMainContent: false,
      maxPages: 5,
    });
    expect(out.html).toContain(REPORT_PDF.body1);
  });
});
