import { bodyProblem, tooDeepAt } from './json-depth';

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

describe('bodyProblem', () => {
  it('finds lone surrogates in values and keys, not in well-formed pairs', () => {
    expect(bodyProblem({ q: 'ok 𝕏 é' }, 32)).toBeNull();
    expect(bodyProblem({ q: 'a\ud800b' }, 32)).toEqual({ kind: 'unicode', path: 'q' });
    expect(bodyProblem({ items: [{ id: '\udc00' }] }, 32)).toEqual({ kind: 'unicode', path: 'items.0.id' });
    expect(bodyProblem({ schema: { 'x\ud83d': 'string' } }, 32)).toEqual({
      kind: 'unicode',
      path: 'schema.x\ufffd',
    });
  });

  it('finds a NUL character at any depth, in values and keys, and keeps it out of the path it names', () => {
    expect(bodyProblem({ name: 'ok\u0001' }, 32)).toBeNull();
    expect(bodyProblem({ name: 'a\u0000' }, 32)).toEqual({ kind: 'nul', path: 'name' });
    expect(bodyProblem({ a: [1, { b: [{ c: '\u0000' }] }] }, 32)).toEqual({ kind: 'nul', path: 'a.1.b.0.c' });
    expect(bodyProblem({ headers: { 'x\u0000': 'v' } }, 32)).toEqual({
      kind: 'nul',
      path: 'headers.x\ufffd',
    });
  });
});
