import { pdfDate } from './pdf.converter';
import type { PdfLine } from './pdf-layout';
import { dropRunningLines } from './running-lines';

const line = (text: string, y: number): PdfLine => ({ text, y, x: 72, size: 11 });

describe('dropRunningLines', () => {
  it('drops edge lines repeated on half the pages (digits ignored) and lone page numbers', () => {
    const pages = [1, 2, 3, 4].map((n) => [
      line('Annual Review', 780),
      line(`Body text of page ${n} that is unique.`, 600 - n * 10),
      line(n % 2 === 0 ? `- ${n} -` : `Page ${n} of 4`, 30),
    ]);
    const out = dropRunningLines(pages);
    expect(out.map((p) => p.map((l) => l.text))).toEqual(
      [1, 2, 3, 4].map((n) => [`Body text of page ${n} that is unique.`]),
    );
  });

  it('keeps repeated text in the middle of a page, and everything of a single page but its number', () => {
    const middle = (n: number) => [
      ...[1, 2, 3].map((k) => line(`Intro ${n}.${k}`, 700 - k * 20)),
      line('Repeated sentence in the body.', 400),
      ...[1, 2, 3].map((k) => line(`Outro ${n}.${k}`, 200 - k * 20)),
    ];
    expect(
      dropRunningLines([middle(1), middle(2)]).every((p) =>
        p.some((l) => l.text === 'Repeated sentence in the body.'),
      ),
    ).toBe(true);
    expect(dropRunningLines([[line('Only page', 700), line('7', 30)]])).toEqual([[line('Only page', 700)]]);
  });
});

describe('dropRunningLines never empties a page', () => {
  it('a page whose every line looks running keeps its body (only exact repeats and numbers go)', () => {
    const pages = [1, 2, 3, 4].map((n) => [
      line('Confidential', 780),
      line(`Body of page ${n}.`, 600),
      line(`${n}`, 30),
    ]);
    expect(dropRunningLines(pages).map((p) => p.map((l) => l.text))).toEqual(
      [1, 2, 3, 4].map((n) => [`Body of page ${n}.`]),
    );
    const bare = [1, 2, 3].map((n) => [line(`Body of page ${n}.`, 600)]);
    expect(dropRunningLines(bare).map((p) => p.map((l) => l.text))).toEqual(
      [1, 2, 3].map((n) => [`Body of page ${n}.`]),
    );
  });
});

describe('pdfDate', () => {
  it.each([
    ["D:20240315103000+01'00'", '2024-03-15T09:30:00.000Z'],
    ['D:20240315103000Z', '2024-03-15T10:30:00.000Z'],
    ['D:2024', '2024-01-01T00:00:00.000Z'],
    ['20240315', '2024-03-15T00:00:00.000Z'],
  ])('%s → %s', (raw, iso) => {
    expect(pdfDate(raw)).toBe(iso);
  });

  it('is null for what is not a date', () => {
    expect(pdfDate('yesterday')).toBeNull();
    expect(pdfDate(undefined)).toBeNull();
    expect(pdfDate('D:20241399')).toBeNull();
  });
});
