/**
 * A block named "menu" is a list of links (site menus, dropdowns, tab strips). Page builders also
 * call a tab or accordion component a "tabs-menu" with the panels inside it: when such a block
 * holds prose (a paragraph of text outside links, at most half of it linked), it is content, not
 * a menu, and removeUnlikely spares it. The same goes for an element marked role=tablist that
 * wraps the tab panels along with the tabs (the role belongs on the strip of tabs alone): holding
 * prose, it is the tab component, not a strip of controls.
 */
import type { Element } from 'domhandler';
import { holdsProse } from './prose-panel';

export function isProseMenu(el: Element, family: string): boolean {
  return family === 'menu' && holdsProse(el);
}

export function isProseTablist(el: Element): boolean {
  return el.attribs.role?.toLowerCase() === 'tablist' && holdsProse(el);
}
