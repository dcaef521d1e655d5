import type { ComponentChildren } from 'preact';

/**
 * Wide tables scroll inside this box at 375 px; it is focusable and named so keyboard users can
 * scroll it (axe: scrollable-region-focusable).
 */
export function ScrollTable({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section class="table-scroll" tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
