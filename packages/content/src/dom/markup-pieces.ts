/**
 * A page's markup as its decoder's pieces (`decodeBodyPieces` of @wcs/net), read piece by piece:
 * their join is one string in new memory (twice the page's size for most real pages), which the
 * parser does not need.
 */

export const CDATA_START = '<![CDATA[';
/** Either CDATA mark (htmlparser2 would hide what follows a stray opening one). */
export const CDATA_MARK = /<!\[CDATA\[|\]\]>/g;

/**
 * The pieces without CDATA marks, each cleaned on its own; undefined when a mark may be cut
 * between two pieces (then the caller cleans the whole markup).
 */
export function withoutCdataMarks(pieces: readonly string[]): string[] | undefined {
  const longest = CDATA_START.length - 1;
  for (let i = 0; i + 1 < pieces.length; i++) {
    const tail = (pieces[i] as string).slice(-longest);
    // A piece shorter than a mark: a mark could span three pieces.
    if (tail.length < longest) return undefined;
    const seam = tail + (pieces[i + 1] as string).slice(0, longest);
    for (const m of seam.matchAll(CDATA_MARK))
      if (m.index < tail.length && m.index + m[0].length > tail.length) return undefined;
  }
  return pieces.map((p) => p.replace(CDATA_MARK, ''));
}

/** Whether the pieces' join holds `needle`, read piece by piece (the join is never made). */
export function piecesInclude(pieces: readonly string[], needle: string): boolean {
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i] as string;
    if (p.includes(needle)) return true;
    // A needle cut between this piece and the next ones.
    let seam = p.slice(-(needle.length - 1));
    for (let j = i + 1; j < pieces.length && seam.length < 2 * (needle.length - 1); j++)
      seam += (pieces[j] as string).slice(0, needle.length - 1);
    if (i + 1 < pieces.length && seam.includes(needle)) return true;
  }
  return false;
}
