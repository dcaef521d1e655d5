/**
 * A link around blocks (a card: `<a><img><div>Name</div><div>$40</div></a>`) renders as its
 * blocks, one per line. The link itself must not vanish with its inline form: the card's first
 * line of text (its name, or its heading) carries it, so a list of cards reads as named links.
 */
const HEADING = /^(#{1,6} )(.*)$/;
/** Lines that already are links or images, or span several lines, are left as they are. */
const NOT_PLAIN = /!\[|\]\(|\n/;

/** Link the first plain text block of `blocks` (markdown) to `url`, in place. */
export function linkFirstBlock(blocks: string[], url: string): void {
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (NOT_PLAIN.test(b)) continue;
    const h = HEADING.exec(b);
    blocks[i] = h ? `${h[1]}[${h[2]}](${url})` : `[${b}](${url})`;
    return;
  }
}
