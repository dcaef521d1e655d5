/**
 * "Drawer" names an off-canvas menu, except inside an accordion: there a drawer is one folding
 * item of the text (an FAQ answer, a step), named after the widget, not the page's chrome.
 */
const FOLDING = /accordion|collaps/i;

/** Whether the chrome word `word` matched in class/id `name` is an accordion item instead. */
export const isAccordionDrawer = (word: string, name: string): boolean =>
  word === 'drawer' && FOLDING.test(name);
