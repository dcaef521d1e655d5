import { execFile } from 'node:child_process';
import path from 'node:path';
import { ApiKeysRepository, createDb, type Db, migrateDatabase } from '@wcs/db';
import { testDatabaseUrl } from '@wcs/db/src/test-support/test-database';

const CLI_DIR = path.resolve(__dirname, '..');
const url = testDatabaseUrl();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Spawn the CLI as users do (tsx), with nothing but DATABASE_URL (and `env`) in its environment. */
function cli(...args: string[]): Promise<Run> {
  return run([], {}, args);
}

function cliWith(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return run([], env, args);
}

/**
 * The CLI with test-support/pool-end-probe.ts loaded: also how many database pools it ended (the
 * probe's line is taken out of stderr).
 */
async function cliEndingPools(...args: string[]): Promise<Run & { poolsEnded: number }> {
  const r = await run(['--import', './src/test-support/pool-end-probe.ts'], {}, args);
  const line = /^pool-end-probe ended=(\d+)\n/m.exec(r.stderr);
  return { ...r, stderr: r.stderr.replace(line?.[0] ?? '', ''), poolsEnded: Number(line?.[1] ?? -1) };
}

function run(preload: string[], env: Record<string, string>, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', ...preload, 'src/main.ts', ...args],
      { cwd: CLI_DIR, env: { DATABASE_URL: url, ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function json(r: Run): Record<string, unknown> {
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>; // the whole stdout is one JSON value
}

let db: Db;
beforeAll(async () => {
  await migrateDatabase(url);
  db = createDb(url, { poolSize: 2 });
});
afterAll(() => db.close());

describe('wcs admin CLI', () => {
  test('accounts create prints one JSON object with a working API key, and ends its pool', async () => {
    const r = await cliEndingPools('accounts', 'create', '--plan', 'hobby', '--name', 'Test Co');
    // Ended, not left to its 10 s idle timeout: the process exits as soon as it has answered.
    expect(r.poolsEnded).toBe(1);
    const out = json(r);
    expect(out).toMatchObject({ plan: 'hobby', balance: 5000, name: 'Test Co' });
    expect(out.accountId).toEqual(expect.any(String));
    expect(out.apiKey).toMatch(/^wcs_[0-9A-Za-z]{40}$/);
    const verified = await new ApiKeysRepository(db).verify(out.apiKey as string);
    expect(verified).toMatchObject({ accountId: out.accountId, plan: 'hobby' });
  });

  test('--credits overrides the plan grant; show lists key prefixes only', async () => {
    const created = json(await cli('accounts', 'create', '--plan', 'free', '--credits', '42'));
    expect(created.balance).toBe(42);
    const shown = json(await cli('accounts', 'show', '--account', created.accountId as string));
    expect(shown).toMatchObject({ accountId: created.accountId, plan: 'free', balance: 42 });
    const keys = shown.keys as Array<Record<string, unknown>>;
    expect(keys).toHaveLength(1);
    expect(keys[0]?.prefix).toBe((created.apiKey as string).slice(0, 12));
    expect(JSON.stringify(shown)).not.toContain(created.apiKey as string);
  });

  test('credits topup adds 100 credits per USD and prints the balance; ledger lists it', async () => {
    const { accountId } = json(await cli('accounts', 'create', '--plan', 'free', '--credits', '5')) as {
      accountId: string;
    };
    expect(json(await cli('credits', 'topup', '--account', accountId, '--usd', '10'))).toEqual({
      balance: 1005,
    });
    const ledger = json(await cli('credits', 'ledger', '--account', accountId));
    expect(ledger.balance).toBe(1005);
    expect((ledger.entries as Array<Record<string, unknown>>).map((e) => [e.reason, e.amount])).toEqual([
      ['topup', 1000],
      ['grant', 5],
    ]);
  });

  test('keys create and revoke', async () => {
    const { accountId } = json(await cli('accounts', 'create', '--plan', 'pro')) as { accountId: string };
    const key = json(await cli('keys', 'create', '--account', accountId, '--name', 'ci'));
    expect(key).toMatchObject({ keyId: expect.any(String), apiKey: expect.stringMatching(/^wcs_/) });
    expect(json(await cli('keys', 'revoke', '--key', key.keyId as string))).toEqual({ revoked: true });
    expect(await new ApiKeysRepository(db).verify(key.apiKey as string)).toBeNull();
    const again = await cli('keys', 'revoke', '--key', key.keyId as string);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(JSON.parse(again.stderr)).toMatchObject({ error: expect.any(String) });
  });

  test('keys create holds MAX_ACTIVE_KEYS_PER_ACCOUNT like the API', async () => {
    const { accountId } = json(await cli('accounts', 'create', '--plan', 'free')) as { accountId: string };
    const capped = { MAX_ACTIVE_KEYS_PER_ACCOUNT: '2' };
    json(await cliWith(capped, 'keys', 'create', '--account', accountId));
    const refused = await cliWith(capped, 'keys', 'create', '--account', accountId);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(refused.stderr)).toMatchObject({
      code: 'CONFLICT',
      error: expect.stringContaining('2 active'),
    });
    // The operator's way past it: a higher setting.
    json(await cliWith({ MAX_ACTIVE_KEYS_PER_ACCOUNT: '3' }, 'keys', 'create', '--account', accountId));
  });

  test('errors: JSON on stderr with exit 1; bad usage exits 2', async () => {
    const missing = await cli('accounts', 'show', '--account', '00000000-0000-4000-8000-000000000000');
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(missing.stderr).error).toMatch(/not found/i);

    const badPlan = await cli('accounts', 'create', '--plan', 'gold');
    expect(badPlan).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(badPlan.stderr).error).toContain('--plan');

    const unknown = await cli('accounts', 'frobnicate');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain('Usage:');
    expect((await cli('accounts', 'create', '--plan', 'free', '--bogus', 'x')).code).toBe(2);
  });

  test('credits grant-monthly grants the plan credits once per month, not in the creation month', async () => {
    const created = json(await cli('accounts', 'create', '--plan', 'hobby', '--credits', '10'));
    const id = created.accountId as string;
    const thisMonth = new Date().toISOString().slice(0, 7);
    const none = json(await cli('credits', 'grant-monthly', '--month', thisMonth, '--account', id));
    expect(none).toMatchObject({ granted: 0 });
    const first = json(await cli('credits', 'grant-monthly', '--month', '2099-01', '--account', id));
    expect(first).toMatchObject({ month: '2099-01', granted: 1, alreadyGranted: 0 });
    const again = json(await cli('credits', 'grant-monthly', '--month', '2099-01', '--account', id));
    expect(again).toMatchObject({ granted: 0, alreadyGranted: 1 });
    const shown = json(await cli('accounts', 'show', '--account', id));
    expect(shown.balance).toBe(10 + 5000);
  });
});
