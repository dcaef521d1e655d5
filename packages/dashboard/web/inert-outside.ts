/**
 * Makes everything outside `keep` inert (not focusable, hidden from assistive technology) by
 * marking the siblings of each of its ancestors up to <body>; returns the undo. Elements that were
 * already inert are left as they were.
 */
export function inertOutside(keep: HTMLElement): () => void {
  const marked: HTMLElement[] = [];
  let node: HTMLElement | null = keep;
  while (node && node !== document.body) {
    const parent: HTMLElement | null = node.parentElement;
    for (const sibling of Array.from(parent?.children ?? [])) {
      if (sibling !== node && sibling instanceof HTMLElement && !sibling.inert) {
        sibling.inert = true;
        marked.push(sibling);
      }
    }
    node = parent;
  }
  return () => {
    for (const el of marked) el.inert = false;
  };
}
