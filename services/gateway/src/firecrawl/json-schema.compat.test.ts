import { ValidationError } from '@wcs/errors';
import { toPlainSchema } from './json-schema.compat';

describe('toPlainSchema', () => {
  it('converts objects, arrays, primitives, nullable unions, enums and local refs', () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1 },
        price: { type: ['number', 'null'] },
        count: { type: 'integer' },
        ok: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        author: { $ref: '#/$defs/Author' },
        kind: { enum: ['a', 'b'] },
        maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['title'],
      $defs: { Author: { type: 'object', properties: { name: { type: 'string' } } } },
    };
    expect(toPlainSchema(schema, 'schema')).toEqual({
      title: 'string',
      price: 'number',
      count: 'number',
      ok: 'boolean',
      tags: ['string'],
      author: { name: 'string' },
      kind: 'string',
      maybe: 'string',
    });
  });

  it('refuses what the plain shape cannot express, naming the path', () => {
    const msg = (s: unknown) => {
      try {
        toPlainSchema(s, 'formats.1.schema');
      } catch (err) {
        if (err instanceof ValidationError) return err.message;
      }
      return 'no error';
    };
    expect(msg({ type: 'array', items: { type: 'string' } })).toMatch(
      /^formats\.1\.schema: the top level must be an object/,
    );
    expect(
      msg({ type: 'object', properties: { x: { anyOf: [{ type: 'string' }, { type: 'number' }] } } }),
    ).toMatch(/^formats\.1\.schema\.properties\.x\.anyOf: unions/);
    expect(msg({ type: 'object', additionalProperties: { type: 'string' } })).toMatch(/free-form maps/);
    expect(msg({ type: 'object', properties: { r: { $ref: '#' } } })).toMatch(/recursive \$ref/);
    expect(msg({ type: 'object', properties: { r: { $ref: 'http://x/s.json' } } })).toMatch(
      /only local references/,
    );
  });
});
