import { ValidationError } from '@wcs/errors';
import { z } from 'zod';
import { parseAs, renameFields } from './field-names.compat';

describe('parseAs', () => {
  it('renames a native field in the message and details of a 400', () => {
    const schema = z.strictObject({ max_urls: z.number().int().max(10) });
    let caught: unknown;
    try {
      parseAs(schema, { max_urls: 11 }, { max_urls: 'limit' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).message).toMatch(/^limit: /);
    expect((caught as ValidationError).details?.field).toBe('limit');
  });

  it('renames nested paths and messages without details, leaves others alone', () => {
    const e = renameFields(new ValidationError('schema.a: unknown type "x"'), { schema: 'formats.0.schema' });
    expect((e as ValidationError).message).toBe('formats.0.schema.a: unknown type "x"');
    const other = new ValidationError('url: bad', { details: { field: 'url' } });
    expect(renameFields(other, { schema: 'x' })).toBe(other);
  });
});
