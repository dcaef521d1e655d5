/**
 * Text folded until a click: closed accordion and tab panels, FAQ answers and "read more"
 * sections. Hidden nodes are otherwise dropped as chrome, so the reading a page folds away is
 * shown before extraction:
 *
 * - on any page, a panel hidden by style that a disclosure control (a button, role=button or
 *   aria-expanded, with aria-controls) names: the control says the panel is part of the reading,
 *   shown on demand. A control inside navigation (a menu toggle) reveals nothing;
 * - on product pages, every closed accordion or tab panel (description, specifications, care
 *   notes);
 * - with a profile's filter (prose panels on articles and service pages), the closed panels it
 *   accepts, and the panels an aria-expanded control opens even under the `hidden` attribute (the
 *   WAI-ARIA accordion pattern toggles it).
 *
 * Otherwise panels under the `hidden` attribute stay hidden: the attribute says the author deems
 * them not relevant (on shops, tabs of promotional copy). One walk collects everything.
 */
import type { Element } from 'domhandler';
import { isElement } from '../dom/dom.util';

/** Names of folding widgets: accordion items, collapsibles, tab panes. */
const PANEL =
  /(?:^|[\s_-])(?:accordion|accordion-?(?:panel|content|body|item)|collapse|collapsible|collapsible-?content|tab-?pane|tab-?panel|tabs?-?content|tab-?body)(?:$|[\s_-])/i;

const PANEL_ROLES = new Set(['tabpanel', 'region']);

const HIDING_STYLE = /(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*;?/gi;
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/** Landmarks whose toggles open menus and search boxes, not content. */
const NAVIGATION = new Set(['nav', 'header', 'footer', 'aside', 'menu']);

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

const hiddenByStyle = (el: Element): boolean =>
  el.attribs.style !== undefined && HIDDEN_STYLE.test(el.attribs.style);

function isHiddenHere(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined) return false;
  return a['aria-hidden'] === 'true' || hiddenByStyle(el);
}

const isDisclosureControl = (el: Element): boolean =>
  el.attribs['aria-controls'] !== undefined &&
  (el.name === 'button' || el.attribs.role === 'button' || el.attribs['aria-expanded'] !== undefined);

function show(el: Element): void {
  const a = el.attribs;
  if (a.hidden !== undefined) delete a.hidden;
  if (a['aria-hidden'] === 'true') delete a['aria-hidden'];
  if (a.style) a.style = a.style.replace(HIDING_STYLE, '');
}

function addIds(to: Set<string>, list: string): void {
  for (const id of list.split(/\s+/)) if (id !== '') to.add(id);
}

/**
 * Which folded panels to show: `'product'` every closed panel; otherwise the panels disclosure
 * controls outside navigation name, plus those `accept` takes (see the file comment).
 */
export type RevealMode = 'product' | { accept?: (panel: Element) => boolean };

/** Show the folded panels under `root` that `mode` says are part of the reading; returns the closed panels shown. */
export function revealFoldedPanels(root: Element, mode: RevealMode): Element[] {
  const shown: Element[] = [];
  const product = mode === 'product';
  const accept = product ? undefined : mode.accept;
  const disclosed = new Set<string>();
  const expandable = new Set<string>();
  const styled: Element[] = [];
  const hidden: Element[] = [];
  const stack: Array<[Element, boolean]> = [[root, false]];
  while (stack.length > 0) {
    const [el, inNav] = stack.pop()!;
    const a = el.attribs;
    const nav = inNav || NAVIGATION.has(el.name) || a.role === 'navigation';
    if (!product) {
      if (!nav && el !== root && isDisclosureControl(el)) addIds(disclosed, a['aria-controls']!);
      if (el !== root && a.id !== undefined && a.hidden === undefined && hiddenByStyle(el)) styled.push(el);
    }
    if (product || accept) {
      if (accept && a['aria-expanded'] !== undefined && a['aria-controls'])
        addIds(expandable, a['aria-controls']);
      if (isHiddenHere(el) || (accept && a.hidden !== undefined && a.id !== undefined)) hidden.push(el);
    }
    for (const c of el.children) if (isElement(c)) stack.push([c, nav]);
  }
  for (const el of styled)
    if (disclosed.has(el.attribs.id!)) el.attribs.style = el.attribs.style!.replace(HIDING_STYLE, '');
  for (const el of hidden) {
    const id = el.attribs.id;
    const opens = accept !== undefined && id !== undefined && expandable.has(id);
    if (
      (isHiddenHere(el) || (opens && el.attribs.hidden !== undefined)) &&
      (isClosedPanel(el) || opens) &&
      (!accept || accept(el))
    ) {
      show(el);
      shown.push(el);
    }
  }
  return shown;
}
