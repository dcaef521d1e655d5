import { withScreenshotOrigin } from './screenshot-origin.middleware';

const token = 'Ab-_'.repeat(18).concat('xy');
const written = `http://localhost:3002/v1/screenshots/${token}.png`;
const moved = `https://shots.example.test/v1/screenshots/${token}.png`;
const origin = 'https://shots.example.test';

describe('withScreenshotOrigin', () => {
  test('moves screenshot URLs of documents, single and in lists, native and Firecrawl-shaped', () => {
    const body = {
      success: true,
      data: {
        screenshot: written,
        markdown: written,
        actions: { screenshots: [written, 'x'], javascriptReturns: [] },
      },
      results: [{ data: { screenshot: `https://old.example/base${written.slice(21)}` } }, { data: null }],
    };
    expect(withScreenshotOrigin(body, origin)).toEqual({
      success: true,
      // Only the screenshot fields: the same text elsewhere (scraped content) stays as it is.
      data: {
        screenshot: moved,
        markdown: written,
        actions: { screenshots: [moved, 'x'], javascriptReturns: [] },
      },
      results: [{ data: { screenshot: moved } }, { data: null }],
    });
    // Nothing mutated: the caller's objects are as they were.
    expect(body.data.screenshot).toBe(written);
  });

  test('leaves alone what is not a capability URL, and answers the same object when nothing moved', () => {
    const body = {
      data: {
        screenshot: 'http://localhost:3002/v1/screenshots/00000000-0000-4000-8000-000000000000.png',
        screenshots: ['https://elsewhere.example/pic.png', 42],
        json: { screenshot: 'my own field' },
      },
      when: new Date(0),
    };
    expect(withScreenshotOrigin(body, origin)).toBe(body);
    expect(withScreenshotOrigin(moved.replace('.png', '.png?x'), origin)).toBe(
      moved.replace('.png', '.png?x'),
    );
    expect(withScreenshotOrigin(null, origin)).toBeNull();
  });
});
