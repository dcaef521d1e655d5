import { ValidationError } from '@wcs/errors';
import { validateAnswer } from './answer-validator';
import { compilePlainSchema } from './schema-compiler';

describe('compilePlainSchema', () => {
  it('compiles primitives, arrays and nested objects: every field required and nullable, objects closed', () => {
    const { jsonSchema } = compilePlainSchema({
      title: 'string',
      price: 'number',
      inStock: 'boolean',
      tags: ['string'],
      author: { name: 'string', links: [{ url: 'string' }] },
    });
    expect(jsonSchema).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['title', 'price', 'inStock', 'tags', 'author'],
      properties: {
        title: { type: ['string', 'null'] },
        price: { type: ['number', 'null'] },
        inStock: { type: ['boolean', 'null'] },
        tags: { type: ['array', 'null'], items: { type: 'string' } },
        author: {
          type: ['object', 'null'],
          additionalProperties: false,
          required: ['name', 'links'],
          properties: {
            name: { type: ['string', 'null'] },
            links: {
              type: ['array', 'null'],
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['url'],
                properties: { url: { type: ['string', 'null'] } },
              },
            },
          },
        },
      },
    });
  });

  it('returns the cached compilation for the same schema text', () => {
    const a = compilePlainSchema({ x: 'string', y: ['number'] });
    const b = compilePlainSchema({ x: 'string', y: ['number'] });
    expect(b.jsonSchema).toBe(a.jsonSchema);
  });

  it.each([
    [{ a: 'integer' }, 'schema.a: unknown type "integer"'],
    [{ a: ['string', 'number'] }, 'schema.a: an array is written as a one-element array'],
    [{ a: [] }, 'schema.a: an array is written as a one-element array'],
    [{ a: { b: [{ c: 42 }] } }, 'schema.a.b[0].c: must be'],
    [{ a: null }, 'schema.a: must be'],
    [{ a: {} }, 'schema.a: an object needs at least one field'],
    [{}, 'schema: an object needs at least one field'],
    [['string'], 'schema: must be an object'],
    [JSON.parse('{"a":{"__proto__":"string"}}'), 'schema.a: "__proto__" is not allowed'],
  ])('rejects %j with a 400 naming the path', (plain, message) => {
    let caught: unknown;
    try {
      compilePlainSchema(plain);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).status).toBe(400);
    expect((caught as ValidationError).message).toContain(message);
  });

  /** `{ a: { a: … "string" } }` with `levels` objects below the top one. */
  const nested = (levels: number, wrap: (inner: unknown) => unknown = (inner) => ({ a: inner })): unknown => {
    let v: unknown = 'string';
    for (let i = 0; i < levels; i++) v = wrap(v);
    return { a: v };
  };

  it('accepts 8 levels and names the depth limit past it', () => {
    expect(() => compilePlainSchema(nested(8))).not.toThrow();
    expect(() => compilePlainSchema(nested(9))).toThrow('nested deeper than 8 levels');
    expect(() => compilePlainSchema(nested(8, (inner) => [inner]))).not.toThrow();
    expect(() => compilePlainSchema(nested(9, (inner) => [inner]))).toThrow('nested deeper than 8 levels');
  });

  it.each([
    ['objects', (inner: unknown) => ({ a: inner })],
    ['arrays', (inner: unknown) => [inner]],
  ])('answers the depth-limit 400 for %s nested 100,000 deep instead of overflowing the stack', (_, wrap) => {
    let caught: unknown;
    try {
      compilePlainSchema(nested(100_000, wrap));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).message).toMatch(/^schema\.a.*: nested deeper than 8 levels$/);
  });
});

describe('validateAnswer', () => {
  const schema = compilePlainSchema({
    title: 'string',
    price: 'number',
    offers: [{ seller: 'string', price: 'number' }],
  });

  it('fills fields the model left out with null and drops invented ones', () => {
    const v = validateAnswer(schema, { title: 'T', offers: [{ seller: 'S' }], invented: 'x' });
    expect(v).toEqual({
      ok: true,
      data: { title: 'T', price: null, offers: [{ seller: 'S', price: null }] },
      coercions: [],
    });
  });

  it('reports wrong types with their paths', () => {
    const v = validateAnswer(schema, {
      title: 'T',
      price: '12 EUR',
      offers: [{ seller: { n: 3 }, price: 1 }],
    });
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.errors.join('\n')).toContain('/price');
      expect(v.errors.join('\n')).toContain('/offers/0/seller');
    }
  });

  it('refuses a non-object answer', () => {
    expect(validateAnswer(schema, 'hello').ok).toBe(false);
  });
});
