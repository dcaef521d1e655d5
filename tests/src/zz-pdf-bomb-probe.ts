import zlib from 'node:zlib';
import { convertDocument } from '@wcs/documents';

function pdfBomb(inflated: number): Buffer {
  const BLOCK = 8 * 1024 * 1024;
  const flush = { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH };
  const head = Buffer.from('BT /F1 12 Tf 72 712 Td (Bomb) Tj ET\n');
  const block = zlib.deflateRawSync(Buffer.alloc(BLOCK, 0x20), flush);
  const n = Math.floor(inflated / BLOCK);
  const data = Buffer.concat([Buffer.from([0x78, 0xda]), zlib.deflateRawSync(head, flush), ...Array.from({ length: n }, () => block), zlib.deflateRawSync(Buffer.alloc(0)), Buffer.alloc(4)]);
  const objs: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>'),
    Buffer.concat([Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`), data, Buffer.from('\nendstream')]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let off = parts[0]!.length;
  const offs: number[] = [];
  objs.forEach((o, i) => {
    offs.push(off);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), o, Buffer.from('\nendobj\n')]);
    parts.push(b);
    off += b.length;
  });
  const xref = `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offs.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${off}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}

async function main() {
  const mib = Number(process.argv[2] ?? 1024);
  const bytes = pdfBomb(mib * 1024 * 1024);
  let peak = 0;
  const t = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 50);
  const t0 = Date.now();
  const r = await convertDocument({ bytes, kind: 'pdf', onlyMainContent: false }).then((d) => `ok ${d.html.slice(0, 80)}`, (e) => `err ${e}`);
  clearInterval(t);
  console.log({ size: bytes.length, mib, r, ms: Date.now() - t0, peakMb: Math.round(peak / 1e6), after: Math.round(process.memoryUsage().rss / 1e6) });
}
void main();
