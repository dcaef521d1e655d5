import { LEDGER_REASONS } from '@wcs/db';
import { LEDGER_REASONS as PAGE_REASONS } from '../../../packages/dashboard/web/ledger-reasons';

/**
 * The page's reason filter is a copy of the ledger's reasons (the browser bundle cannot import
 * @wcs/db, which carries Prisma); this keeps the copy equal to the one list the database checks.
 */
it("the dashboard's reason filter lists exactly the ledger's reasons", () => {
  expect([...PAGE_REASONS]).toEqual([...LEDGER_REASONS]);
});
