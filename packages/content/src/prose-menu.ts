/**
 * A block named "menu" is a list of links (site menus, dropdowns, tab strips). Page builders also
 * call a tab or accordion component a "tabs-menu" with the panels inside it: when such a block
 * holds prose (a paragraph of text outside links, at most half of it linked), it is content, not
 * a menu, and removeUnlikely spares it.
 */
import type { Element } from 'domhandler';
import { holdsProse } from './prose-panel';

export function isProseMenu(el: Element, family: string): boolean {
  return family === 'menu' && holdsProse(el);
}
