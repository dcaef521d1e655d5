/** A small seeded generator (an LCG): the same generated test input on every run. */
export const seededRandom =
  (seed: number): (() => number) =>
  () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
