/**
 * The verdict trap set (test-data/verdict-traps): wall, error, parking, login and empty pages
 * rebuilt from the vendors' public markup, and hard negatives (real pages about those things)
 * that must stay `content`. Read by the verdict tests and `pnpm bench:verdicts`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BlockReason, PageVerdict, ProcessedContent, RawDocument } from '../index';

export const TRAP_DIR = path.resolve(__dirname, '../../test-data/verdict-traps');
/** Held-out set, written without looking at the rules: the measurement on pages not tuned for. */
export const HELDOUT_DIR = path.resolve(__dirname, '../../test-data/verdict-heldout');

export interface VerdictTrap {
  id: string;
  /** HTML (or text) file in the set's directory. */
  file: string;
  statusCode: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  contentType?: string;
  expect: { verdict: PageVerdict; reason?: BlockReason; vendor?: string; shownStatus?: number };
  /** Where the markup comes from, or why the page is a trap. */
  note: string;
}

export function loadVerdictTraps(dir: string = TRAP_DIR): VerdictTrap[] {
  return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as VerdictTrap[];
}

/** The trap as the pipeline receives it. */
export function trapDocument(
  trap: VerdictTrap,
  dir: string = TRAP_DIR,
): { doc: RawDocument; headers: Record<string, string> } {
  return {
    doc: {
      body: readFileSync(path.join(dir, trap.file), 'utf8'),
      contentType: trap.contentType ?? 'text/html',
      url: `https://trap.test/${trap.id}`,
      statusCode: trap.statusCode,
    },
    headers: trap.headers,
  };
}

/** What a trap's verdict got right: the verdict, and for walls the reason and vendor, for errors the status. */
export function trapOutcome(
  trap: VerdictTrap,
  out: ProcessedContent,
): { verdict: boolean; detail: boolean; got: string } {
  const v = out.verdict;
  const verdict = v.verdict === trap.expect.verdict;
  const e = trap.expect;
  const detail =
    verdict &&
    (e.reason === undefined || v.block?.reason === e.reason) &&
    (e.vendor === undefined || v.block?.vendor === e.vendor) &&
    (e.shownStatus === undefined || v.shownStatus === e.shownStatus);
  const got = [v.verdict, v.block?.reason, v.block?.vendor, v.shownStatus]
    .filter((x) => x !== undefined)
    .join(' ');
  return { verdict, detail, got };
}
