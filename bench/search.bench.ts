/**
 * Embedded search: indexing throughput and query latency of the PostgreSQL full-text index.
 *
 *   pnpm bench:search [--docs 5000] [--other 5000] [--queries 60]
 *
 * Indexes `--docs` fixture articles for one account and `--other` for a second one (so the GIN
 * index holds other accounts' pages too, as in production), then times DocumentsRepository.search
 * (limit 5, with and without `lang`) and prints the plan of one query. Both accounts are deleted
 * at the end (documents cascade).
 */
import { parseArgs } from 'node:util';
import { loadEnv } from '@wcs/config';
import { AccountsRepository, createDb, DocumentsRepository } from '@wcs/db';
import { fixtureArticle } from '@wcs/testing';
import { z } from 'zod';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '5000' },
    other: { type: 'string', default: '5000' },
    queries: { type: 'string', default: '60' },
  },
});
const env = loadEnv(z.object({ DATABASE_URL: z.string().min(1) }));
const DOCS = Number(values.docs);
const OTHER = Number(values.other);
const QUERIES = Number(values.queries);
const QUERY_TERMS = [
  'tidal turbine',
  'sourdough hydration',
  'leader election quorum',
  'roast curve',
  'kerning serif',
];

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

async function indexMany(documents: DocumentsRepository, accountId: string, n: number, host: string) {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const art = fixtureArticle(i);
      await documents.upsert({
        accountId,
        url: `https://${host}/article/${i}`,
        title: art.title,
        description: art.paragraphs[0]?.slice(0, 160) ?? null,
        markdown: `# ${art.title}\n\n${art.paragraphs.join('\n\n')}`,
        language: 'en',
      });
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: 8 }, worker));
  return n / ((performance.now() - started) / 1000);
}

async function main() {
  const db = createDb(env.DATABASE_URL, { poolSize: 10 });
  const accounts = new AccountsRepository(db);
  const documents = new DocumentsRepository(db);
  const me = (await accounts.create({ plan: 'free', credits: 0 })).accountId;
  const other = (await accounts.create({ plan: 'free', credits: 0 })).accountId;
  try {
    const rate = await indexMany(documents, me, DOCS, 'me.example');
    await indexMany(documents, other, OTHER, 'other.example');
    await db.prisma.$executeRawUnsafe('ANALYZE documents');
    console.log(`indexing: ${rate.toFixed(0)} pages/s (8 concurrent upserts, ~3 kB of markdown each)`);

    for (const lang of [undefined, 'en'] as const) {
      const times: number[] = [];
      let hits = 0;
      for (let i = 0; i < QUERIES; i++) {
        const query = QUERY_TERMS[i % QUERY_TERMS.length] ?? 'tidal';
        const t = performance.now();
        const r = await documents.search({ accountId: me, query, limit: 5, ...(lang ? { lang } : {}) });
        times.push(performance.now() - t);
        hits += r.length;
      }
      console.log(
        `search (${DOCS} pages for this account, ${OTHER} for another; limit 5${lang ? `, lang=${lang}` : ''}): ` +
          `p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms, ${(hits / QUERIES).toFixed(1)} hits/query`,
      );
    }
    const plan = await db.prisma.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(
      `EXPLAIN SELECT url FROM documents WHERE account_id = '${me}'::uuid AND search_config = 'english'
         AND search_vector @@ websearch_to_tsquery('english', 'tidal turbine')`,
    );
    const usesGin = plan.some((r) => r['QUERY PLAN'].includes('documents_search_vector_idx'));
    console.log(`plan of one config's match uses the GIN index: ${usesGin}`);
  } finally {
    await db.prisma.account.deleteMany({ where: { id: { in: [me, other] } } });
    await db.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
