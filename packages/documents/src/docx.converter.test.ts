import { DocumentUnreadableError, TargetTooLargeError } from '@wcs/errors';
import { DOCX_BOMB_TEXT, docxBomb, SAMPLE_DOCX, sampleDocx } from '@wcs/testing';
import { convertDocument } from './convert-document';
import { DEFAULT_INFLATE_LIMITS } from './inflate-budget';

const MiB = 1024 * 1024;

describe('convertDocument (docx)', () => {
  let bytes: Buffer;
  beforeAll(async () => {
    bytes = await sampleDocx();
  });

  it('keeps headings, paragraphs, lists, tables and links', async () => {
    const d = SAMPLE_DOCX;
    const out = await convertDocument({ bytes, kind: 'docx', onlyMainContent: false });
    expect(out.html).toContain(`<h1>${d.heading}</h1>`);
    expect(out.html).toContain(`<h2>${d.subheading}</h2>`);
    expect(out.html).toContain(`<p>${d.paragraph}</p>`);
    expect(out.html).toContain(
      `<ul><li>${d.bullets[0]}</li><li>${d.bullets[1]}</li><li>${d.bullets[2]}</li></ul>`,
    );
    expect(out.html).toMatch(/<table>.*Phase.*Owner.*Design.*Alice.*Build.*Bob.*<\/table>/s);
    expect(out.html).toContain(`<a href="${d.linkUrl}">${d.linkText}</a>`);
    expect(out.metadata.title).toBe(d.title);
    expect(out.metadata.author).toBe(d.author);
    expect(out.metadata.pages).toBeNull();
    expect(out.metadata.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(out.warning).toBeUndefined();
  });

  it.each([
    ['truncated', () => bytes.subarray(0, Math.floor(bytes.length / 2))],
    [
      'corrupt',
      () =>
        Buffer.concat([
          Buffer.from([0x50, 0x4b, 0x03, 0x04]),
          Buffer.alloc(512, 7),
          Buffer.from([0x50, 0x4b, 0x05, 0x06]),
          Buffer.alloc(18),
        ]),
    ],
    [
      'encrypted',
      () =>
        Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(1024)]),
    ],
  ])('rejects a %s Word file with DOCUMENT_UNREADABLE', async (reason, make) => {
    const err = await convertDocument({ bytes: make(), kind: 'docx', onlyMainContent: false }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DocumentUnreadableError);
    expect((err as DocumentUnreadableError).code).toBe('DOCUMENT_UNREADABLE');
    expect((err as DocumentUnreadableError).details?.reason).toBe(reason);
  });

  describe('decompression bombs', () => {
    it('a small package of the same make converts (the bomb is a readable Word file)', async () => {
      const out = await convertDocument({
        bytes: docxBomb({ inflatedBytes: 256 * 1024 }),
        kind: 'docx',
        onlyMainContent: false,
      });
      expect(out.html).toContain(`<p>${DOCX_BOMB_TEXT}`);
    });

    it.each(['honest', 'lying'] as const)(
      'a 1 GiB document.xml (%s sizes) is TARGET_TOO_LARGE under the default limits',
      async (sizes) => {
        const err = await convertDocument({
          bytes: docxBomb({ inflatedBytes: 1024 * MiB, sizes }),
          kind: 'docx',
          onlyMainContent: false,
        }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(TargetTooLargeError);
        expect((err as TargetTooLargeError).status).toBe(502);
        // Honest sizes pass the ratio cap at once; lying ones are stopped by the total while inflating.
        expect((err as TargetTooLargeError).details).toEqual(
          sizes === 'honest'
            ? { maxInflateRatio: DEFAULT_INFLATE_LIMITS.maxInflateRatio }
            : { maxInflatedBytes: DEFAULT_INFLATE_LIMITS.maxInflatedBytes },
        );
        expect(err).toHaveProperty('message', expect.stringMatching(/^The Word document /));
      },
    );

    it("the limits are the caller's: a 64 MiB part passes or fails by inflateLimits", async () => {
      const bytes = docxBomb({ inflatedBytes: 64 * MiB, sizes: 'lying' });
      const small = await convertDocument({
        bytes,
        kind: 'docx',
        onlyMainContent: false,
        inflateLimits: { maxInflatedBytes: 16 * MiB, maxInflateRatio: 10_000 },
      }).catch((e: unknown) => e);
      expect((small as TargetTooLargeError).details).toEqual({ maxInflatedBytes: 16 * MiB });
    });
  });
});
