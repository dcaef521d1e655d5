import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadGatewayEnv } from '@wcs/gateway';
import { modelSummary } from '@wcs/llm';
import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '../..');
const WORKERS = [
  'scrape-worker',
  'crawl-worker',
  'extract-worker',
  'monitor-scheduler',
  'webhook-dispatcher',
];

/** `docker compose` (plugin) if present, else the standalone docker-compose that validates offline. */
function composeCommand(): string[] {
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0)
    return ['docker', 'compose'];
  return ['docker-compose'];
}

describe('docker-compose.yml', () => {
  const [cmd, ...pre] = composeCommand() as [string, ...string[]];
  const run = (...args: string[]) => execFileSync(cmd, [...pre, ...args], { cwd: ROOT, encoding: 'utf8' });

  it('passes `compose config`', () => {
    expect(() => run('config', '-q')).not.toThrow();
  });

  it('defines every service, with stores and a migration step', () => {
    const services = run('config', '--services').trim().split('\n').sort();
    expect(services).toEqual(['gateway', 'migrate', 'postgres', 'redis', ...WORKERS].sort());
  });

  it('workers are scalable (no container_name, no host ports) and each has its Dockerfile', () => {
    const text = run('config');
    expect(text).not.toContain('container_name');
    for (const w of WORKERS) {
      const dockerfile = readFileSync(path.join(ROOT, `infra/docker/${w}.Dockerfile`), 'utf8');
      expect(dockerfile).toContain(`services/${w}`);
    }
    expect(readFileSync(path.join(ROOT, 'infra/docker/scrape-worker.Dockerfile'), 'utf8')).toContain(
      'chromium',
    );
    expect(readFileSync(path.join(ROOT, 'infra/redis.conf'), 'utf8')).toMatch(/maxmemory-policy noeviction/);
  });
});

describe('docker-compose.yml model settings', () => {
  const MODEL_VARS = ['LLM_PROVIDER', 'LLM_BASE_URL', 'LLM_MODEL', 'LLM_MODEL_PATH', 'LLM_API_KEY'];

  it('reach the gateway and every worker alike, and their unset defaults load', () => {
    const [cmd, ...pre] = composeCommand() as [string, ...string[]];
    const text = execFileSync(cmd, [...pre, 'config'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    const services = (parse(text) as { services: Record<string, { environment?: Record<string, string> }> })
      .services;
    const model = (name: string) =>
      Object.fromEntries(
        Object.entries(services[name]?.environment ?? {}).filter(
          ([k]) =>
            k.startsWith('LLM_') ||
            k.startsWith('EXTRACT_') ||
            k.startsWith('ANTHROPIC_') ||
            k.startsWith('OPENAI_'),
        ),
      );
    const gateway = model('gateway');
    for (const v of MODEL_VARS) expect(Object.keys(gateway)).toContain(v);
    for (const w of WORKERS) expect([w, model(w)]).toEqual([w, gateway]);
    // Unset in the caller's shell, they arrive empty: the gateway reads that as no model.
    const env = loadGatewayEnv({
      ...gateway,
      DATABASE_URL: 'postgresql://x@localhost/x',
    } as NodeJS.ProcessEnv);
    expect(modelSummary(env)).toEqual({ configured: false, provider: 'anthropic', model: null });
  });
});
