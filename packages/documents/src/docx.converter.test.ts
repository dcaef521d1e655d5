import { DocumentUnreadableError } from '@wcs/errors';
import { SAMPLE_DOCX, sampleDocx } from '@wcs/testing';
import { convertDocument } from './convert-document';

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
});
