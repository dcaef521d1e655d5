import { reportPdf, sampleDocx } from '@wcs/testing';
import { DOCX_MEDIA_TYPE, sniffDocumentKind } from './document-kind';

describe('sniffDocumentKind', () => {
  it('knows a PDF by its header, even after a little junk', async () => {
    const pdf = await reportPdf();
    expect(sniffDocumentKind(pdf, 'application/octet-stream')).toBe('pdf');
    expect(sniffDocumentKind(Buffer.concat([Buffer.alloc(100, 0x20), pdf]), null)).toBe('pdf');
    expect(sniffDocumentKind(Buffer.concat([Buffer.alloc(2000, 0x20), pdf]), 'text/html')).toBeNull();
  });

  it('knows a DOCX by its ZIP parts or its media type', async () => {
    const docx = await sampleDocx();
    expect(sniffDocumentKind(docx, 'application/octet-stream')).toBe('docx');
    expect(sniffDocumentKind(Buffer.from('PK\x03\x04plain zip'), DOCX_MEDIA_TYPE)).toBe('docx');
    expect(sniffDocumentKind(Buffer.from('PK\x03\x04plain zip'), 'application/zip')).toBeNull();
  });

  it('leaves HTML alone', () => {
    expect(sniffDocumentKind(Buffer.from('<!doctype html><p>hi'), 'text/html')).toBeNull();
  });
});
