import type { Element } from 'domhandler';
import { processHtml } from '../index';
import { classWeight } from './class-weight';

const el = (cls: string): Element => ({ attribs: { class: cls } }) as unknown as Element;

describe('class weight', () => {
  it('reads chrome and content names', () => {
    expect(classWeight(el('sidebar'))).toBeLessThan(0);
    expect(classWeight(el('article-body'))).toBeGreaterThan(0);
    expect(classWeight(el('hidden-panel'))).toBeLessThan(0);
  });

  it('with layout, a clipping utility class names no chrome; other hidden names still do', () => {
    expect(classWeight(el('rounded-lg overflow-hidden'))).toBeLessThan(0);
    expect(classWeight(el('rounded-lg overflow-hidden'), true)).toBe(0);
    expect(classWeight(el('md:overflow-x-hidden card'), true)).toBe(0);
    expect(classWeight(el('overflow-hidden is-hidden'), true)).toBeLessThan(0);
  });
});

describe('a clipped section on a product page', () => {
  const LD =
    '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail shoe"}</script>';
  const prose = (n: number): string =>
    Array.from(
      { length: n },
      (_, i) =>
        `<p>Paragraph ${i} on the trail shoe: a grippy outsole, a rock plate under the forefoot and a roomy toe box for long days in the hills.</p>`,
    ).join('');
  const html = `<html><head><title>Trail shoe</title>${LD}</head><body><main><h1>Trail shoe</h1>${prose(8)}
    <div class="rounded-lg overflow-hidden"><h2>Specifications</h2><ul><li>Drop: 6 mm</li><li>Weight: 280 g</li><li>Stack: 30 mm</li></ul></div>
    </main></body></html>`;

  it('stays: the class clips a rounded box, it does not hide chrome', () => {
    const out = processHtml(html, { url: 'https://shop.example.com/products/trail-shoe', formats: ['text'] });
    expect(out.metadata.pageType).toBe('product');
    expect(out.text).toContain('Paragraph 3 on the trail shoe');
    expect(out.text).toContain('Weight: 280 g');
  });
});
