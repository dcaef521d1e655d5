import { ExtractionFailedError } from '@wcs/errors';
import { readJudgement } from './change-judge';

describe('readJudgement', () => {
  test('structured data (a tool call) is read as is', () => {
    expect(readJudgement({ data: { relevant: true, reason: 'Price changed.' } })).toEqual({
      relevant: true,
      reason: 'Price changed.',
    });
  });

  test.each([
    ['plain JSON', '{"relevant": false, "reason": "Only the hours."}', false],
    ['fenced after prose', 'Sure:\n```json\n{"relevant": true, "reason": "Only the hours."}\n```', true],
    ['near-JSON with a string boolean', "{relevant: 'false', reason: 'Only the hours.',}", false],
    ['reasoning first', '<think>hmm</think>{"relevant": true, "reason": "Only the hours."}', true],
  ])('text answers are parsed like an extract: %s', (_name, text, relevant) => {
    expect(readJudgement({ text })).toEqual({ relevant, reason: 'Only the hours.' });
  });

  test.each([
    ['prose', 'Well, it depends on what you mean by relevant.'],
    ['no answer', ''],
    ['no boolean', '{"relevant": "maybe", "reason": "x"}'],
    ['an array', '[true]'],
  ])('an unusable text answer throws EXTRACTION_FAILED: %s', (_name, text) => {
    expect(() => readJudgement({ text })).toThrow(ExtractionFailedError);
  });

  test('no data and no text throws', () => {
    expect(() => readJudgement({})).toThrow(/no usable answer/);
  });
});
