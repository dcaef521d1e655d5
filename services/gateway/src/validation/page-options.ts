/**
 * The page options of a request body, checked past what zod's shape can say, and split
 * into the plain part (payloads, rows) and the secret part (sealed or kept only while the job lives).
 */
import { findInvalidSelector, selectorListCostProblem } from '@wcs/content';
import { ValidationError } from '@wcs/errors';
import { compilePlainSchema } from '@wcs/llm';
import {
  type ChangeTrackingOptions,
  type PageOptions,
  type PageSecrets,
  splitPageOptions,
  wantsScreenshot,
} from '@wcs/queues';
import { toPlainSchema } from '../firecrawl/json-schema.compat';

type PageOptionFields = Partial<PageOptions & PageSecrets>;

export interface CheckedPageOptions {
  options: PageOptions;
  secrets: PageSecrets | undefined;
}

/**
 * `prefix` is where the fields sit in the body ('' for scrape, 'scrapeOptions.' for crawl) so the
 * message names the field as the caller wrote it. `engine` is the request's engine choice.
 */
export function checkPageOptions(
  fields: PageOptionFields,
  o: {
    prefix?: string;
    engine?: string | undefined;
    format?: string | undefined;
    /** A feature that keeps no pictures (extract, monitors): `screenshot` actions are refused, naming it. */
    keepsNoScreenshots?: string;
  } = {},
): CheckedPageOptions {
  const at = (name: string) => `${o.prefix ?? ''}${name}`;
  for (const name of ['includeTags', 'excludeTags'] as const) {
    const list = fields[name];
    if (!list) continue;
    const bad = findInvalidSelector(list);
    if (bad !== undefined) {
      throw new ValidationError(`${at(name)}: "${bad.slice(0, 100)}" is not a valid CSS selector`, {
        details: { field: at(name) },
      });
    }
    // Shapes whose matching cost grows as a power of the page (nested :has() and the like).
    const costly = selectorListCostProblem(list);
    if (costly !== undefined) {
      throw new ValidationError(`${at(name)}: ${costly}`, { details: { field: at(name) } });
    }
  }
  for (const [i, action] of (fields.actions ?? []).entries()) {
    const selector = 'selector' in action ? action.selector : undefined;
    if (selector !== undefined && findInvalidSelector([selector]) !== undefined) {
      throw new ValidationError(
        `${at(`actions.${i}.selector`)}: "${selector.slice(0, 100)}" is not a valid CSS selector`,
        {
          details: { field: at(`actions.${i}.selector`) },
        },
      );
    }
  }
  const shot = o.keepsNoScreenshots ? (fields.actions?.findIndex((a) => a.type === 'screenshot') ?? -1) : -1;
  if (shot >= 0) {
    throw new ValidationError(
      `${at(`actions.${shot}`)}: ${o.keepsNoScreenshots} keeps no screenshots; use /v1/scrape`,
      {
        details: { field: at(`actions.${shot}`) },
      },
    );
  }
  if (o.format !== undefined && fields.formats !== undefined) {
    throw new ValidationError(`${at('formats')}: give either format or formats, not both`, {
      details: { field: at('formats') },
    });
  }
  const changeTrackingOptions = checkChangeTracking(fields, at);
  const needsBrowser = (fields.actions?.length ?? 0) > 0 || wantsScreenshot(fields.formats) !== undefined;
  if (needsBrowser && o.engine === 'fetch') {
    throw new ValidationError(
      `${at('engine')}: actions and screenshots need the browser; use engine "auto" or "browser"`,
      { details: { field: at('engine') } },
    );
  }
  return splitPageOptions(changeTrackingOptions ? { ...fields, changeTrackingOptions } : fields);
}

/**
 * The `changeTracking` format compares markdown, so it comes with the markdown format (Firecrawl's
 * rule too); its options without it would be ignored silently, so they are refused.
 */
function checkChangeTracking(
  fields: PageOptionFields,
  at: (name: string) => string,
): ChangeTrackingOptions | undefined {
  const tracked = fields.formats?.includes('changeTracking') ?? false;
  if (tracked && !fields.formats?.includes('markdown')) {
    throw new ValidationError(`${at('formats')}: the changeTracking format needs the markdown format too`, {
      details: { field: at('formats') },
    });
  }
  const options = fields.changeTrackingOptions;
  if (!options) return undefined;
  if (!tracked) {
    throw new ValidationError(
      `${at('changeTrackingOptions')}: only with the changeTracking format in formats`,
      { details: { field: at('changeTrackingOptions') } },
    );
  }
  const json = options.modes?.includes('json') ?? false;
  if ((options.schema !== undefined || options.prompt !== undefined) && !json) {
    const name = options.schema !== undefined ? 'schema' : 'prompt';
    throw new ValidationError(`${at(`changeTrackingOptions.${name}`)}: only with the "json" mode`, {
      details: { field: at(`changeTrackingOptions.${name}`) },
    });
  }
  if (json && options.schema === undefined && options.prompt === undefined) {
    throw new ValidationError(
      `${at('changeTrackingOptions.modes')}: the "json" mode needs a schema or a prompt (changeTrackingOptions.schema / .prompt)`,
      { details: { field: at('changeTrackingOptions.modes') } },
    );
  }
  if (options.schema === undefined) return options;
  const schema = plainChangeSchema(options.schema, at('changeTrackingOptions.schema'));
  // The plain schema is JSON (strings, arrays and objects of them), as the contract's field says.
  return { ...options, schema: schema as NonNullable<ChangeTrackingOptions['schema']> };
}

/**
 * The json mode's schema, as the extract model takes it: a JSON Schema (Firecrawl's shape, what its
 * SDK sends) becomes the plain extract schema; a plain one (`{ "price": "number" }`, POST
 * /v1/extract's) is taken as it is. Either way it is compiled here, so a schema the model could not
 * be given is a 400 naming the field, not a failed page.
 */
function plainChangeSchema(schema: Record<string, unknown>, field: string): Record<string, unknown> {
  const jsonSchema = ['type', 'properties', '$ref', 'anyOf', 'oneOf', '$schema'].some((k) => k in schema);
  const plain = jsonSchema ? toPlainSchema(schema, field) : schema;
  try {
    compilePlainSchema(plain);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    // The compiler names its paths from `schema`; the caller's field is this one.
    throw new ValidationError(err.message.replace(/^schema/, field), { details: { field } });
  }
  return plain;
}
