import { TargetTooLargeError } from '@wcs/errors';
import { docxBomb, sampleDocx } from '@wcs/testing';
import { INFLATE_CHUNK_BYTES } from './bounded-inflate';
import { BoundedZip, MAX_ZIP_ENTRIES } from './bounded-zip';
import type { InflateLimits } from './inflate-budget';

const MiB = 1024 * 1024;

async function readBomb(bytes: Buffer, limits: InflateLimits): Promise<{ err: unknown; inflated: number }> {
  const zip = await BoundedZip.open(bytes, limits, 'The test archive');
  try {
    const err = await zip.read('word/document.xml').then(
      () => undefined,
      (e: unknown) => e,
    );
    return { err, inflated: zip.inflatedBytes };
  } finally {
    zip.close();
  }
}

describe('BoundedZip', () => {
  it('reads the parts of a real Word file, counting what it inflated', async () => {
    const zip = await BoundedZip.open(
      await sampleDocx(),
      { maxInflatedBytes: 8 * MiB, maxInflateRatio: 200 },
      'x',
    );
    expect(zip.has('word/document.xml')).toBe(true);
    expect(zip.has('word/none.xml')).toBe(false);
    const xml = (await zip.read('word/document.xml')).toString('utf8');
    expect(xml).toContain('<w:document');
    expect(zip.inflatedBytes).toBe(Buffer.byteLength(xml));
    zip.close();
  });

  it('a part that declares more than the ratio allows is refused before anything is inflated', async () => {
    const { err, inflated } = await readBomb(docxBomb({ inflatedBytes: 64 * MiB }), {
      maxInflatedBytes: 1024 * MiB,
      maxInflateRatio: 50,
    });
    expect(err).toBeInstanceOf(TargetTooLargeError);
    expect((err as TargetTooLargeError).details).toEqual({ maxInflateRatio: 50 });
    expect(inflated).toBe(0);
  });

  it('a part that declares more than the total allows is refused before anything is inflated', async () => {
    const { err, inflated } = await readBomb(docxBomb({ inflatedBytes: 64 * MiB }), {
      maxInflatedBytes: 8 * MiB,
      maxInflateRatio: 10_000,
    });
    expect((err as TargetTooLargeError).details).toEqual({ maxInflatedBytes: 8 * MiB });
    expect(inflated).toBe(0);
  });

  it('a part that lies about its size stops at the total cap, at most one chunk past it', async () => {
    const cap = 8 * MiB;
    const { err, inflated } = await readBomb(docxBomb({ inflatedBytes: 64 * MiB, sizes: 'lying' }), {
      maxInflatedBytes: cap,
      maxInflateRatio: 10_000,
    });
    expect(err).toBeInstanceOf(TargetTooLargeError);
    expect((err as TargetTooLargeError).code).toBe('TARGET_TOO_LARGE');
    expect((err as TargetTooLargeError).status).toBe(502);
    expect((err as TargetTooLargeError).details).toEqual({ maxInflatedBytes: cap });
    expect(err).toHaveProperty('message', expect.stringContaining('DOCUMENT_MAX_INFLATED_BYTES'));
    expect(inflated).toBeGreaterThan(cap);
    expect(inflated).toBeLessThanOrEqual(cap + INFLATE_CHUNK_BYTES);
  });

  it('a part that lies about its size stops at its ratio cap, at most one chunk past it', async () => {
    const bomb = docxBomb({ inflatedBytes: 64 * MiB, sizes: 'lying' });
    const zip = await BoundedZip.open(bomb, { maxInflatedBytes: 1024 * MiB, maxInflateRatio: 100 }, 'x');
    // The bomb part's compressed size, from the central directory (the archive's last part).
    const compressed = bomb.readUInt32LE(bomb.length - 22 - (46 + 'word/document.xml'.length) + 20);
    const cap = Math.max(MiB, compressed * 100);
    const err = await zip.read('word/document.xml').catch((e: unknown) => e);
    expect((err as TargetTooLargeError).details).toEqual({ maxInflateRatio: 100 });
    expect(err).toHaveProperty('message', expect.stringContaining('DOCUMENT_MAX_INFLATE_RATIO'));
    expect(zip.inflatedBytes).toBeGreaterThan(cap);
    expect(zip.inflatedBytes).toBeLessThanOrEqual(cap + INFLATE_CHUNK_BYTES);
    // Once stopped, the archive stays stopped: no further inflating.
    await expect(zip.read('_rels/.rels')).rejects.toBe(err);
    zip.close();
  });

  it('a part within the limits is read whole, whatever it declares', async () => {
    for (const sizes of ['honest', 'lying'] as const) {
      const zip = await BoundedZip.open(
        docxBomb({ inflatedBytes: 3 * MiB, sizes }),
        { maxInflatedBytes: 8 * MiB, maxInflateRatio: 10_000 },
        'x',
      );
      const xml = await zip.read('word/document.xml');
      expect({ sizes, length: xml.length }).toEqual({ sizes, length: 3 * MiB });
      expect(xml.subarray(-20).toString()).toContain('</w:document>');
      zip.close();
    }
  });

  it('an archive listing more than MAX_ZIP_ENTRIES files is refused before any entry is read', async () => {
    // Only the end record: it declares the entry count that the directory would hold.
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(MAX_ZIP_ENTRIES + 1, 8);
    end.writeUInt16LE(MAX_ZIP_ENTRIES + 1, 10);
    const err = await BoundedZip.open(end, { maxInflatedBytes: MiB, maxInflateRatio: 100 }, 'x').catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TargetTooLargeError);
    expect((err as TargetTooLargeError).details).toEqual({ maxZipEntries: MAX_ZIP_ENTRIES });
  });
});
