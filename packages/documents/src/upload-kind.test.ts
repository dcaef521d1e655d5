import { reportPdf, sampleDocx } from '@wcs/testing';
import { sniffUploadKind } from './upload-kind';

describe('sniffUploadKind', () => {
  it('reads the kind from the bytes, whatever the file claims to be', async () => {
    expect(sniffUploadKind(await reportPdf())).toBe('pdf');
    expect(sniffUploadKind(await sampleDocx())).toBe('docx');
    expect(sniffUploadKind(Buffer.from('  \n<!doctype html><p>x</p>'))).toBe('html');
  });

  it('markup wins over a "%PDF-" quoted in the first KiB; BOMs are skipped', () => {
    expect(
      sniffUploadKind(Buffer.from('<html><body>A file that starts %PDF-1.7 like a PDF</body></html>')),
    ).toBe('html');
    expect(sniffUploadKind(Buffer.from('\uFEFF<p>utf-8 with a BOM</p>'))).toBe('html');
    expect(sniffUploadKind(Buffer.from('\uFEFF<p>utf-16</p>', 'utf16le'))).toBe('html');
  });

  it('anything else is null: text, images, a ZIP that is not a Word file, nothing', () => {
    expect(sniffUploadKind(Buffer.from('plain text, no markup'))).toBeNull();
    expect(sniffUploadKind(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))).toBeNull();
    expect(sniffUploadKind(Buffer.from('PK\u0003\u0004content.xml and nothing else'))).toBeNull();
    expect(sniffUploadKind(Buffer.alloc(0))).toBeNull();
  });
});
