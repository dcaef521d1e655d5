import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { descendantProcesses, scannedPdf } from '@wcs/testing';
import type { ContentTask } from './content.task';
import { ContentPool } from './content-pool';

const TOOLS = ['pdftoppm', 'tesseract', 'timeout'].every(
  (t) => spawnSync('sh', ['-c', `command -v ${t}`], { stdio: 'ignore' }).status === 0,
);

const ocrProcesses = () => descendantProcesses(/^(pdftoppm|tesseract)$/);

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20)))
    if (cond()) return true;
  return cond();
}

(TOOLS ? describe : describe.skip)('ContentPool with OCR: a cancelled document', () => {
  let tmp: string;
  beforeAll(() => {
    // A private dir for the pool's OCR work dirs shows what is left behind.
    tmp = mkdtempSync(path.join(tmpdir(), 'wcs-pool-ocr-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('stops the OCR tool and removes its files when the job is cancelled, long before the budget', async () => {
    const pool = new ContentPool({
      threads: 1,
      idleTimeoutMs: 300,
      taskTimeoutMs: 120_000,
      heapMb: 512,
      ocr: { enabled: true, languages: 'eng', tmpDir: tmp },
    });
    try {
      const pdf = await scannedPdf(20);
      const task: ContentTask = {
        body: '',
        contentType: 'application/pdf',
        finalUrl: 'http://site.test/scan.pdf',
        sourceUrl: 'http://site.test/scan.pdf',
        statusCode: 200,
        format: 'markdown',
        onlyMainContent: true,
        links: false,
        bytes: new Uint8Array(pdf),
        documentKind: 'pdf',
      };
      const ac = new AbortController();
      const running = pool.run(task, ac.signal);
      running.catch(() => undefined);
      expect(await until(() => ocrProcesses().length > 0, 30_000)).toBe(true);
      expect(readdirSync(tmp).length).toBe(1); // the OCR work dir, holding the PDF
      ac.abort(new Error('cancelled by the caller'));
      await expect(running).rejects.toThrow('cancelled by the caller');
      // The budget is 120 s and the tools' own timeout as long: only the pool can have ended them.
      expect(await until(() => ocrProcesses().length === 0, 30_000)).toBe(true);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
