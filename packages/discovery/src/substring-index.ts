/**
 * Which of many short keys occur in a string, in one pass (Aho–Corasick). robots-matcher.ts uses
 * it so a URL only verifies the wildcard rules whose literal part it contains, instead of running
 * `indexOf` for every wildcard rule. Keys are at most `MAX_KEY_LENGTH` code units, so at most that
 * many keys end at any position: a scan costs O(length × MAX_KEY_LENGTH) whatever the key count.
 */

export const MAX_KEY_LENGTH = 8;
const ROOT = 0;
const NONE = -1;
/** Code units above 126 share one symbol: a false hit only adds a candidate, never hides one. */
const sym = (c: number): number => Math.min(c, 127);

export class SubstringIndex {
  /** Goto function: `state * 128 + symbol` → state (small integers: fast Map keys). */
  private readonly goto = new Map<number, number>();
  private readonly fail: Int32Array;
  /** Key id ending at a state, or NONE. */
  private readonly out: Int32Array;
  /** Nearest state on the failure chain with an output (dictionary suffix link), or NONE. */
  private readonly dict: Int32Array;
  /** Scan number that last reported each key (reports each key once per scan). */
  private readonly seen: Int32Array;
  private scanNo = 0;

  /** `keys` must be distinct, non-empty and at most MAX_KEY_LENGTH long; their index is their id. */
  constructor(keys: readonly string[]) {
    const outList: number[] = [NONE];
    const kids: Array<Array<[number, number]>> = [[]];
    for (let id = 0; id < keys.length; id++) {
      const key = keys[id] as string;
      let s = ROOT;
      for (let i = 0; i < key.length; i++) {
        const c = sym(key.charCodeAt(i));
        let t = this.goto.get(s * 128 + c);
        if (t === undefined) {
          t = outList.length;
          outList.push(NONE);
          kids.push([]);
          this.goto.set(s * 128 + c, t);
          (kids[s] as Array<[number, number]>).push([c, t]);
        }
        s = t;
      }
      outList[s] = id;
    }
    const n = outList.length;
    this.out = Int32Array.from(outList);
    this.fail = new Int32Array(n);
    this.dict = new Int32Array(n).fill(NONE);
    this.seen = new Int32Array(keys.length).fill(-1);
    // Breadth first: a state's failure link is known before its children's.
    const queue: number[] = [];
    for (const [, t] of kids[ROOT] as Array<[number, number]>) queue.push(t); // fail = ROOT
    for (let head = 0; head < queue.length; head++) {
      const u = queue[head] as number;
      for (const [c, v] of kids[u] as Array<[number, number]>) {
        let f = this.fail[u] as number;
        let t = this.goto.get(f * 128 + c);
        while (t === undefined && f !== ROOT) {
          f = this.fail[f] as number;
          t = this.goto.get(f * 128 + c);
        }
        const fv = t ?? ROOT;
        this.fail[v] = fv;
        this.dict[v] = this.out[fv] !== NONE ? fv : (this.dict[fv] as number);
        queue.push(v);
      }
    }
  }

  /** Calls `found(id)` once for every key occurring in `text` (in order of first end position). */
  scan(text: string, found: (id: number) => void): void {
    const scan = ++this.scanNo;
    let s = ROOT;
    for (let i = 0; i < text.length; i++) {
      const c = sym(text.charCodeAt(i));
      let t = this.goto.get(s * 128 + c);
      while (t === undefined && s !== ROOT) {
        s = this.fail[s] as number;
        t = this.goto.get(s * 128 + c);
      }
      s = t ?? ROOT;
      for (
        let o = this.out[s] !== NONE ? s : (this.dict[s] as number);
        o !== NONE;
        o = this.dict[o] as number
      ) {
        const id = this.out[o] as number;
        if (this.seen[id] !== scan) {
          this.seen[id] = scan;
          found(id);
        }
      }
    }
  }
}
