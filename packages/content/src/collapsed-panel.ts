/**
 * Product pages fold their description, specifications and care notes into accordions and tabs
 * whose closed panels are hidden by style (display:none, aria-hidden) until a click. Hidden nodes
 * are otherwise dropped as chrome; on a product page a closed panel is the product's own text,
 * so it is shown before extraction. Panels under the `hidden` attribute stay hidden: the
 * attribute says the author deems them not relevant (on shops, tabs of promotional copy).
 */
import type { Element } from 'domhandler';
import { isElement } from './dom.util';

/** Names of folding widgets: accordion items, collapsibles, tab panes. */
const PANEL =
  /(?:^|[\s_-])(?:accordion|accordion-?(?:panel|content|body|item)|collapse|collapsible|collapsible-?content|tab-?pane|tab-?panel|tabs?-?content|tab-?body)(?:$|[\s_-])/i;

const PANEL_ROLES = new Set(['tabpanel', 'region']);

const HIDING_STYLE = /(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*;?/gi;

const nameOf = (el: Element): string =>
  `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`.replace(/([a-z])([A-Z])/g, '$1-$2');

function looksLikePanel(el: Element): boolean {
  const role = el.attribs.role?.toLowerCase();
  return (role !== undefined && PANEL_ROLES.has(role)) || PANEL.test(nameOf(el));
}

/** A hidden panel, or the hidden wrapper a collapse widget puts around one. */
function isClosedPanel(el: Element): boolean {
  if (looksLikePanel(el)) return true;
  for (const c of el.children) if (isElement(c) && looksLikePanel(c)) return true;
  return false;
}

function isHiddenHere(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined) return false;
  return a['aria-hidden'] === 'true' || (a.style !== undefined && HIDDEN_STYLE.test(a.style));
}

const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

function show(el: Element): void {
  const a = el.attribs;
  if (a.hidden !== undefined) delete a.hidden;
  if (a['aria-hidden'] === 'true') delete a['aria-hidden'];
  if (a.style) a.style = a.style.replace(HIDING_STYLE, '');
}

/**
 * Show the closed accordion and tab panels under `root` (product pages; other profiles pass
 * `accept` to show only the panels they want).
 */
export function revealCollapsedPanels(root: Element, accept?: (panel: Element) => boolean): void {
  // with a filter (prose panels): also the panels a disclosure button (aria-expanded,
  // aria-controls) opens, even under the hidden attribute (the WAI-ARIA accordion pattern toggles
  // it). One walk collects both the controls' targets and the hidden elements.
  const controlled = new Set<string>();
  const hidden: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    const a = el.attribs;
    if (accept && a['aria-expanded'] !== undefined && a['aria-controls'])
      for (const id of a['aria-controls'].split(/\s+/)) if (id !== '') controlled.add(id);
    if (isHiddenHere(el) || (accept && a.hidden !== undefined && a.id !== undefined)) hidden.push(el);
    for (const c of el.children) if (isElement(c)) stack.push(c);
  }
  for (const el of hidden) {
    const id = el.attribs.id;
    const disclosed = accept !== undefined && id !== undefined && controlled.has(id);
    if (
      (isHiddenHere(el) || (disclosed && el.attribs.hidden !== undefined)) &&
      (isClosedPanel(el) || disclosed) &&
      (!accept || accept(el))
    )
      show(el);
  }
}
