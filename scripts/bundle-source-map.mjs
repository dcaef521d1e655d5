// A bundle's source map cut into sections (the index map of the Source Map spec). A service's
// bundle holds ~700,000 mappings in one ~4 MB map; source-map-support parses and sorts all of them
// when the first stack through the bundle is formatted: 1.1–1.3 s of the main thread on an idle
// 2-core machine, 3.5 s on a loaded one, long enough for every job lock of the process to expire.
// Sectioned, the first stack costs ~40–50 ms (the file read and one small object per section), and
// each frame parses only the section it falls in (~1 ms): source-map's IndexedSourceMapConsumer
// parses a section's mappings on its first lookup.
import { readFileSync, writeFileSync } from 'node:fs';
import { decode, encode } from '@jridgewell/sourcemap-codec';

/** Mappings in one section: a frame's lookup parses its section alone (~1 ms at this size). */
export const SEGMENTS_PER_SECTION = 1_000;

const indexIn = (ids, list, value) => {
  let i = ids.get(value);
  if (i === undefined) {
    i = list.length;
    list.push(value);
    ids.set(value, i);
  }
  return i;
};

/**
 * The same mappings as `map` (a standard v3 map), as an index map of sections of at most
 * `perSection` segments (at least 2). Each section starts at one of its segments (its offset), so a
 * position between two sections falls in the earlier one as it fell on the earlier segment before;
 * each carries only the sources and names it uses.
 */
export function sectionSourceMap(map, perSection = SEGMENTS_PER_SECTION) {
  const lines = decode(map.mappings);
  const sections = [];
  let cur = null;
  const close = () => {
    if (!cur) return;
    sections.push({
      offset: cur.offset,
      map: {
        version: 3,
        ...(map.sourceRoot ? { sourceRoot: map.sourceRoot } : {}),
        sources: cur.sources,
        names: cur.names,
        mappings: encode(cur.lines),
      },
    });
  };
  const add = (line, seg) => {
    while (cur.line < line) {
      cur.lines.push([]);
      cur.line++;
    }
    // On the section's first line, columns count from its offset.
    const out = [line === cur.offset.line ? seg[0] - cur.offset.column : seg[0]];
    if (seg.length >= 4) {
      out.push(indexIn(cur.sourceIds, cur.sources, map.sources[seg[1]]), seg[2], seg[3]);
      if (seg.length === 5) out.push(indexIn(cur.nameIds, cur.names, map.names[seg[4]]));
    }
    cur.lines[cur.lines.length - 1].push(out);
    cur.count++;
  };
  for (let line = 0; line < lines.length; line++) {
    for (const seg of lines[line]) {
      // One place is kept for the next section's first segment, copied into this one: source-map
      // (0.6) looks a position at a section's very offset up in the section before it.
      if (cur && cur.count >= perSection - 1) {
        add(line, seg);
        close();
        cur = null;
      }
      cur ??= {
        // The first from the start of the file: source-map finds no section for a position before
        // the first offset, nor (as above) at it.
        offset: sections.length === 0 ? { line: 0, column: 0 } : { line, column: seg[0] },
        lines: [[]],
        line,
        count: 0,
        sources: [],
        names: [],
        sourceIds: new Map(),
        nameIds: new Map(),
      };
      add(line, seg);
    }
  }
  close();
  return { version: 3, ...(map.file ? { file: map.file } : {}), sections };
}

/** Rewrites the map file `file` (esbuild's) as its sectioned form. */
export function sectionSourceMapFile(file, perSection = SEGMENTS_PER_SECTION) {
  const map = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, JSON.stringify(sectionSourceMap(map, perSection)));
}
