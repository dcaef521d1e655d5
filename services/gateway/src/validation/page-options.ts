/**
 * The page options of a request body, checked past what zod's shape can say, and split
 * into the plain part (payloads, rows) and the secret part (sealed or kept only while the job lives).
 */
import { findInvalidSelector, selectorListCostProblem } from '@wcs/content';
import { ValidationError } from '@wcs/errors';
import { type PageOptions, type PageSecrets, splitPageOptions, wantsScreenshot } from '@wcs/queues';

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
  const needsBrowser = (fields.actions?.length ?? 0) > 0 || wantsScreenshot(fields.formats) !== undefined;
  if (needsBrowser && o.engine === 'fetch') {
    throw new ValidationError(
      `${at('engine')}: actions and screenshots need the browser; use engine "auto" or "browser"`,
      { details: { field: at('engine') } },
    );
  }
  return splitPageOptions(fields);
}
