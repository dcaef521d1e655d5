import { FULL_PAGE_MAX_CSS_HEIGHT, fullPageClip, pngSize, SCREENSHOT_MAX_PIXELS } from './browser-screenshot';

describe('fullPageClip', () => {
  it('takes the whole document when it is small enough', () => {
    expect(fullPageClip({ width: 1280, height: 3016.4 }, 1)).toEqual({ width: 1280, height: 3017 });
  });

  it('stops a desktop page at 16,384 CSS px', () => {
    expect(fullPageClip({ width: 1280, height: 1e6 }, 1)).toEqual({
      width: 1280,
      height: FULL_PAGE_MAX_CSS_HEIGHT,
    });
  });

  it('keeps wide and high-density pages within the pixel budget', () => {
    const wide = fullPageClip({ width: 50_000, height: 50_000 }, 1);
    expect(wide).toEqual({ width: 4_096, height: 5_120 });
    const mobile = fullPageClip({ width: 412, height: 1e6 }, 2.625);
    expect(mobile).toEqual({ width: 412, height: 7_387 });
    for (const [clip, dsf] of [
      [wide, 1],
      [mobile, 2.625],
    ] as const)
      expect(clip.width * clip.height * dsf * dsf).toBeLessThanOrEqual(SCREENSHOT_MAX_PIXELS);
  });
});

describe('pngSize', () => {
  it('reads the IHDR size and refuses what is not a PNG', () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAEklEQVR42mP8z8Dwn4EIwDiqEAD8Jwf+hKTVYQAAAABJRU5ErkJggg==',
      'base64',
    );
    expect(pngSize(png)).toEqual({ width: 3, height: 2 });
    expect(() => pngSize(Buffer.from('GIF89a....................'))).toThrow('Not a PNG');
  });
});
