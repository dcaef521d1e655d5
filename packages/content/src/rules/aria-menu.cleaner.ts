/**
 * ARIA menus: an element with role menu or menubar, or a menu item, is a control (a
 * dropdown of filters, a language picker, account actions), never the page's content. Such
 * menus often sit inside the content region (a "Language" dropdown above a list of results)
 * where no landmark or class name marks them, and a long one outweighs the content around it.
 */
import type { Element, ParentNode } from 'domhandler';
import { isElement, removeNode } from '../dom/dom.util';

const MENU_ROLES = new Set(['menu', 'menubar', 'menuitem', 'menuitemradio', 'menuitemcheckbox']);

/** Remove the outermost elements whose role names a menu or a menu item (before stats are taken). */
export function removeAriaMenus(root: ParentNode): void {
  const stack: ParentNode[] = [root];
  const gone: Element[] = [];
  while (stack.length > 0) {
    const p = stack.pop()!;
    for (const c of p.children) {
      if (!isElement(c)) continue;
      const role = c.attribs.role;
      if (role !== undefined && MENU_ROLES.has(role.trim().toLowerCase())) gone.push(c);
      else stack.push(c);
    }
  }
  for (const el of gone) removeNode(el);
}
