/**
 * Sign-in forms: a password field asks the reader for a secret, so the form around it (with its
 * "Invalid password" error, "Forgot your password?" link and "Enter" button) is site chrome on
 * any page — a shop's account lock, a member login box dropped into a product or post body.
 */
import type { Element } from 'domhandler';
import { findAll, isElement, removeNode, textOf } from '../dom/dom.util';

/** A login box says little; a wrapper holding more text holds the page's own content too. */
const MAX_BOX = 300;
/** A <form> around the field is the whole login form (remember me, sign-up links...). */
const MAX_FORM = 1000;

const isPassword = (e: Element): boolean =>
  e.name === 'input' && (e.attribs.type ?? '').toLowerCase() === 'password';

/** The outermost ancestor still small enough to be the login box alone. */
function loginBox(input: Element, root: Element): Element | null {
  let box: Element | null = null;
  for (let el = input.parent; el && el !== root && isElement(el); el = el.parent) {
    const len = textOf(el).length;
    if (el.name === 'form') return len <= MAX_FORM ? el : box;
    if (len > MAX_BOX) break;
    box = el;
  }
  return box;
}

export function removeLoginForms(root: Element): void {
  const boxes = new Set<Element>();
  for (const input of findAll(root, isPassword)) {
    const box = loginBox(input, root);
    if (box) boxes.add(box);
  }
  for (const b of boxes) removeNode(b);
}
