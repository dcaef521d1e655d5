import { ValidationError } from '@wcs/errors';
import { uploadOptions } from './upload-options';

describe('uploadOptions', () => {
  it('reads text fields as the types the schema wants', () => {
    expect(
      uploadOptions({
        formats: 'markdown, links',
        includeTags: '["main", "a, b"]',
        onlyMainContent: 'false',
        timeout: '30000',
        filename: 'a.pdf',
      }),
    ).toEqual({
      formats: ['markdown', 'links'],
      includeTags: ['main', 'a, b'],
      onlyMainContent: false,
      timeout: 30000,
      filename: 'a.pdf',
    });
    // A repeated query parameter is a list.
    expect(uploadOptions({ formats: ['markdown', 'html,links'] })).toEqual({
      formats: ['markdown', 'html', 'links'],
    });
  });

  it('merges the options JSON part with the fields; a field given twice is a 400', () => {
    expect(uploadOptions({ options: '{"formats":["html"]}', onlyMainContent: 'true' })).toEqual({
      formats: ['html'],
      onlyMainContent: true,
    });
    expect(() => uploadOptions({ options: '{"formats":["html"]}', formats: 'markdown' })).toThrow(
      /formats: given in options and on its own/,
    );
    expect(() => uploadOptions({ options: '[1]' })).toThrow(/options: must be a JSON object/);
    expect(() => uploadOptions({ options: '{' })).toThrow(ValidationError);
  });

  it('refuses the options that say how a page is fetched, naming them', () => {
    for (const key of ['waitFor', 'actions', 'headers', 'maxAge', 'proxy', 'url']) {
      expect(() => uploadOptions({ [key]: '1' })).toThrow(
        new RegExp(`^${key}: does not apply to an uploaded file`),
      );
    }
  });
});
