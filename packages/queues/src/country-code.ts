import { z } from 'zod';

/**
 * ISO 3166-1 alpha-2 codes in use, from the ICU data Node ships (CLDR's regions), so no table of
 * ours goes stale. CLDR names more two-letter regions than ISO assigns; these are not countries:
 * user-assigned codes (AA, QM–QZ, XA–XZ, ZZ — CLDR gives XK, XA, XB, QO, ZZ names), groupings
 * (EU, EZ, UN) and the exceptionally reserved codes of other standards (AC, CP, CQ, DG, EA, IC, TA).
 * Codes withdrawn from ISO 3166-1 (SU, YU, UK…) are canonicalised by `Intl.Locale` to their
 * successor, which is offered as a hint.
 */
const NOT_ASSIGNED = new Set(['AC', 'CP', 'CQ', 'DG', 'EA', 'EU', 'EZ', 'IC', 'TA', 'UN']);
const USER_ASSIGNED = /^(AA|Q[M-Z]|X[A-Z]|ZZ)$/;

export type CountryCheck = { ok: true } | { ok: false; replacement?: string };

/** Whether `code` (upper case, two letters) is an assigned ISO 3166-1 alpha-2 country code. */
export function checkCountryCode(code: string): CountryCheck {
  if (!/^[A-Z]{2}$/.test(code) || USER_ASSIGNED.test(code) || NOT_ASSIGNED.has(code)) return { ok: false };
  // An unknown region's display name is the code itself.
  if (new Intl.DisplayNames(['en'], { type: 'region' }).of(code) === code) return { ok: false };
  const canonical = new Intl.Locale(`und-${code}`).region;
  if (canonical !== code) return canonical ? { ok: false, replacement: canonical } : { ok: false };
  return { ok: true };
}

/**
 * A request's country: two letters in any case, upper-cased, refused with a 400 message naming
 * the code (and its successor for a withdrawn one) unless ISO 3166-1 assigns it.
 */
export function countryCode(format: string) {
  return z
    .string()
    .regex(/^[A-Za-z]{2}$/, format)
    .transform((c, ctx) => {
      const code = c.toUpperCase();
      const check = checkCountryCode(code);
      if (!check.ok) {
        const hint = check.replacement ? ` (did you mean "${check.replacement}"?)` : '';
        ctx.addIssue({
          code: 'custom',
          message: `${code} is not an assigned ISO 3166-1 alpha-2 country code${hint}`,
        });
        return z.NEVER;
      }
      return code;
    });
}
