import { buildModelInput, estimateTokens, markdownBlocks } from './token-budget';

describe('markdownBlocks', () => {
  it('splits on blank lines but keeps fenced code (with blank lines inside) whole', () => {
    const md =
      '# Title\n\nPara one\nstill one\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\n- item\n- item 2';
    expect(markdownBlocks(md)).toEqual([
      '# Title',
      'Para one\nstill one',
      '```js\nconst a = 1;\n\nconst b = 2;\n```',
      '- item\n- item 2',
    ]);
  });
});

describe('buildModelInput', () => {
  const page = {
    url: 'https://example.com/a',
    title: 'A title',
    description: 'A description',
    markdown: Array.from({ length: 50 }, (_, i) => `Paragraph ${i} ${'word '.repeat(30)}`.trim()).join(
      '\n\n',
    ),
  };

  it('keeps URL, title and description on top and everything when the page fits', () => {
    const input = buildModelInput(page, 100_000);
    expect(
      input.text.startsWith('URL: https://example.com/a\nTitle: A title\nDescription: A description\n\n'),
    ).toBe(true);
    expect(input.truncated).toBe(false);
    expect(input.text).toContain('Paragraph 49');
    expect(input.tokens).toBe(estimateTokens(input.text));
  });

  it('cuts on block boundaries to the budget', () => {
    const input = buildModelInput(page, 300);
    expect(input.truncated).toBe(true);
    expect(input.tokens).toBeLessThanOrEqual(300);
    expect(input.text).toContain('Title: A title');
    expect(input.text).toContain('Paragraph 0 ');
    expect(input.text).not.toContain('Paragraph 49');
    // every kept paragraph is whole
    const body = input.text.split('\n\n').slice(1);
    for (const block of body) expect(block).toMatch(/^Paragraph \d+ (word ){29}word$/);
  });

  it('cuts a single block larger than the whole budget rather than sending the header alone', () => {
    const input = buildModelInput({ url: 'https://x.test/', markdown: 'x'.repeat(10_000) }, 250);
    expect(input.truncated).toBe(true);
    expect(input.tokens).toBeLessThanOrEqual(250);
    expect(input.text).toContain('xxxx');
  });
});
