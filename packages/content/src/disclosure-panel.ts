/**
 * FAQ answers, steps and "read more" sections folded behind a disclosure control: a button (or
 * an element with role=button or aria-expanded) whose aria-controls names a panel hidden by
 * style until clicked. The control says the panel is part of the reading, shown on demand, not
 * chrome; it is shown before extraction. Panels under the `hidden` attribute stay hidden (as in
 * collapsed-panel.ts), and a control inside navigation (a menu toggle) reveals nothing.
 */
import type { Element, ParentNode } from 'domhandler';
import { isElement } from './dom.util';

const HIDING_STYLE = /(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*;?/gi;
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/** Landmarks whose toggles open menus and search boxes, not content. */
const NAVIGATION = new Set(['nav', 'header', 'footer', 'aside', 'menu']);

const isControl = (el: Element): boolean =>
  el.attribs['aria-controls'] !== undefined &&
  (el.name === 'button' || el.attribs.role === 'button' || el.attribs['aria-expanded'] !== undefined);

/** Show the style-hidden panels that a disclosure control outside navigation names. */
export function revealDisclosedPanels(root: Element): void {
  const targets = new Set<string>();
  const panels: Element[] = [];
  const stack: Array<[ParentNode, boolean]> = [[root, false]];
  while (stack.length > 0) {
    const [p, inNav] = stack.pop()!;
    for (const c of p.children) {
      if (!isElement(c)) continue;
      const nav = inNav || NAVIGATION.has(c.name) || c.attribs.role === 'navigation';
      if (!nav && isControl(c)) for (const id of c.attribs['aria-controls']!.split(/\s+/)) targets.add(id);
      const a = c.attribs;
      if (a.id !== undefined && a.hidden === undefined && a.style !== undefined && HIDDEN_STYLE.test(a.style))
        panels.push(c);
      stack.push([c, nav]);
    }
  }
  for (const el of panels) {
    if (targets.has(el.attribs.id!)) el.attribs.style = el.attribs.style!.replace(HIDING_STYLE, '');
  }
}
