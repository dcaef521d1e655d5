/**
 * The bundles' edits of libraries (scripts/bundle-patches.mjs), run as the bundles run them: the
 * library's own files with the edits applied, loaded in a child process (a module cache of its
 * own). ioredis against the real Redis: connections that define the same script share one `Script`
 * and each still runs it (EVAL on a socket's first call, EVALSHA after); the ready check still
 * reads whether Redis is loading and the node's role, as the whole INFO parse did. mime-types maps
 * every extension and type as the unedited module does.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TEST_REDIS_URL } from './harness';

const ROOT = path.resolve(__dirname, '..', '..');
const PATCHES = pathToFileURL(path.join(ROOT, 'scripts', 'bundle-patches.mjs')).href;
/** ioredis as the services resolve it (a dependency of @wcs/queues). */
const QUEUES = path.join(ROOT, 'packages', 'queues', 'package.json');
/** mime-types as the gateway loads it (through express). */
const EXPRESS = createRequire(path.join(ROOT, 'services', 'gateway', 'package.json')).resolve('express');

const CHILD = `
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const path = require('node:path');
(async () => {
  const { patchSource } = await import(process.env.PATCHES);
  const resolve = Module.createRequire(process.env.QUEUES).resolve;
  const redisFile = resolve('ioredis/built/Redis.js');
  const patched = (file) => {
    const text = readFileSync(file, 'utf8');
    const m = new Module(file, module);
    m.filename = file;
    m.paths = Module._nodeModulePaths(path.dirname(file));
    Module._cache[file] = m;
    m._compile(patchSource(file, text), file);
    m.loaded = true;
    return { exports: m.exports, edited: patchSource(file, text) !== text };
  };
  // Commander first: Redis.js and the cluster client take it from the cache.
  const commander = patched(path.join(path.dirname(redisFile), 'utils', 'Commander.js'));
  const { exports: redisModule, edited } = patched(redisFile);
  const Redis = redisModule.default;
  const mimeFile = Module.createRequire(process.env.EXPRESS).resolve('mime-types');
  const original = require(mimeFile);
  const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);
  const originalMaps = { types: { ...original.types }, extensions: { ...original.extensions } };
  delete Module._cache[mimeFile];
  const mime = patched(mimeFile);
  const mimeSame =
    same(mime.exports.types, originalMaps.types) &&
    same(mime.exports.extensions, originalMaps.extensions) &&
    Object.keys(originalMaps.types).length > 1000;
  const a = new Redis(process.env.REDIS_URL);
  const b = new Redis(process.env.REDIS_URL);
  const key = 'bundle-patches:' + process.pid;
  const lua = 'return redis.call("INCRBY", KEYS[1], ARGV[1])';
  a.defineCommand('bump', { numberOfKeys: 1, lua });
  b.defineCommand('bump', { numberOfKeys: 1, lua });
  a.defineCommand('bumpRead', { numberOfKeys: 1, lua, readOnly: true });
  const runs = [await a.bump(key, 2), await b.bump(key, 3), await a.bump(key, 4), await b.bump(key, 5)];
  const ready = await new Promise((resolve, reject) => a._readyCheck((err, info) => (err ? reject(err) : resolve(info))));
  // The fields as the whole parse read them.
  const whole = {};
  for (const line of (await a.info()).split('\\r\\n')) {
    const [name, ...rest] = line.split(':');
    if (['loading', 'loading_eta_seconds', 'role'].includes(name) && rest.join(':')) whole[name] = rest.join(':');
  }
  await a.del(key);
  a.disconnect();
  b.disconnect();
  console.log(JSON.stringify({
    edited: { commander: commander.edited, redis: edited, mime: mime.edited },
    mimeSame,
    shared: a.scriptsSet.bump === b.scriptsSet.bump,
    ownOptions: a.scriptsSet.bump !== a.scriptsSet.bumpRead,
    runs,
    ready,
    whole,
  }));
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
`;

describe('bundle edits of libraries', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bundle-patches-'));
    writeFileSync(path.join(dir, 'child.cjs'), CHILD);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ioredis shares scripts and keeps its ready check (real Redis); mime-types maps as before', () => {
    const run = spawnSync(process.execPath, [path.join(dir, 'child.cjs')], {
      encoding: 'utf8',
      env: { ...process.env, PATCHES, QUEUES, EXPRESS, REDIS_URL: TEST_REDIS_URL },
    });
    if (run.status !== 0) throw new Error(run.stderr || run.stdout);
    const out = JSON.parse(run.stdout);
    expect(out.edited).toEqual({ commander: true, redis: true, mime: true });
    expect(out.mimeSame).toBe(true);
    expect(out.shared).toBe(true);
    expect(out.ownOptions).toBe(true);
    expect(out.runs).toEqual([2, 5, 9, 14]);
    expect(out.ready).toEqual(out.whole);
    expect(out.ready).toMatchObject({ loading: '0', role: 'master' });
  });
});
