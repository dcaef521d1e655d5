import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

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
