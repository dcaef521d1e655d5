const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Width and height from a PNG's IHDR chunk (it must come first, 13 bytes long), or undefined when
 * the bytes are not a PNG. Only the header is read: the image data is never decoded.
 */
export function pngDimensions(png: Buffer): { width: number; height: number } | undefined {
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  if (png.readUInt32BE(8) !== 13 || png.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  // The PNG spec bounds both to 1 … 2^31-1.
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) return undefined;
  return { width, height };
}
