import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Each SQL function's current definition is kept in one reviewed file,
 * packages/db/sql/functions/<name>.sql; a migration is how it reaches a database. The latest
 * migration that defines the function must hold exactly that file's statement (whitespace and
 * `--` comments aside), so a change goes through both: edit the file, and copy it into a new
 * migration (never an edit of an old one).
 */
const ROOT = join(__dirname, '..', '..', '..');
const MIGRATIONS = join(ROOT, 'prisma', 'migrations');
const FUNCTIONS = join(ROOT, 'packages', 'db', 'sql', 'functions');

const DEFINITION = /CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+([a-z_][a-z0-9_]*)\s*\(/gi;

/** The statement that starts at `from`: through its dollar-quoted body and the `;` after it. */
function statementAt(sql: string, from: number): string {
  const open = /\$([A-Za-z_]*)\$/g;
  open.lastIndex = from;
  const tag = open.exec(sql);
  if (!tag) throw new Error(`no dollar-quoted body after offset ${from}`);
  const close = sql.indexOf(tag[0], tag.index + tag[0].length);
  if (close < 0) throw new Error(`unterminated ${tag[0]} body`);
  const end = sql.indexOf(';', close + tag[0].length);
  return sql.slice(from, end + 1);
}

/** Comment lines dropped, whitespace runs as one space, and CREATE [OR REPLACE] alike. */
function normalise(sql: string): string {
  return sql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .replace(/\s+/g, ' ')
    .replace(/^CREATE (OR REPLACE )?FUNCTION/i, 'CREATE OR REPLACE FUNCTION')
    .trim();
}

/** function name -> its definitions, oldest migration first. */
function definitionsInMigrations(): Map<string, Array<{ migration: string; statement: string }>> {
  const found = new Map<string, Array<{ migration: string; statement: string }>>();
  const dirs = readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  for (const migration of dirs) {
    const sql = readFileSync(join(MIGRATIONS, migration, 'migration.sql'), 'utf8');
    for (const m of sql.matchAll(DEFINITION)) {
      const name = (m[1] as string).toLowerCase();
      const list = found.get(name) ?? [];
      list.push({ migration, statement: statementAt(sql, m.index) });
      found.set(name, list);
    }
  }
  return found;
}

const inMigrations = definitionsInMigrations();
const reviewed = readdirSync(FUNCTIONS)
  .filter((f) => f.endsWith('.sql'))
  .map((f) => f.replace(/\.sql$/, ''))
  .sort();

describe('SQL functions: one reviewed file each, and the latest migration matches it', () => {
  it('every function a migration defines has its file, and every file a migration', () => {
    expect([...inMigrations.keys()].sort()).toEqual(reviewed);
  });

  it.each(reviewed)('%s: the latest migration defining it holds the reviewed statement', (name) => {
    const file = readFileSync(join(FUNCTIONS, `${name}.sql`), 'utf8');
    const fileDefs = [...file.matchAll(DEFINITION)];
    expect(fileDefs.map((m) => (m[1] as string).toLowerCase())).toEqual([name]);
    const latest = inMigrations.get(name)?.at(-1);
    if (!latest) throw new Error(`no migration defines ${name}`);
    const reviewedStatement = statementAt(file, (fileDefs[0] as RegExpMatchArray).index as number);
    expect({ migration: latest.migration, statement: normalise(latest.statement) }).toEqual({
      migration: latest.migration,
      statement: normalise(reviewedStatement),
    });
  });
});
