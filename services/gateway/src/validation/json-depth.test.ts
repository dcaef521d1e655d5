import { tooDeepAt } from './json-depth';

describe('tooDeepAt', () => {
  it('counts objects and arrays as levels, the body being level 1', () => {
    expect(tooDeepAt({ a: [{ b: 1 }] }, 3)).toBeNull();
    expect(tooDeepAt({ a: [{ b: {} }] }, 3)).toBe('a.0.b');
    expect(tooDeepAt('scalar', 0)).toBeNull();
  });

  it('walks a million levels without recursion and shortens the path it names', () => {
    let v: unknown = [];
    for (let i = 0; i < 1_000_000; i++) v = [v];
    const at = tooDeepAt({ deep: v }, 32);
    expect(at?.startsWith('deep.0.0')).toBe(true);
    expect(at?.endsWith('…')).toBe(true);
  });
});
