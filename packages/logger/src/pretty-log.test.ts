import { Writable } from 'node:stream';
import { createLogger, prettyLogLine } from './index';

const line = JSON.stringify({
  level: 30,
  time: Date.UTC(2026, 10, 24, 12, 0, 0),
  service: 'gateway',
  pid: 42,
  hostname: 'h',
  port: 3002,
  msg: 'gateway listening',
});

describe('prettyLogLine', () => {
  it('prints a JSON log line as level, message and its own fields', () => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal colours
    const out = prettyLogLine(line).replace(/\u001b\[\d+m/g, '');
    expect(out).toContain('INFO');
    expect(out).toContain('gateway listening');
    expect(out).toContain('"port":3002');
    // Bound process fields are left out; one line per record.
    expect(out).not.toContain('hostname');
    expect(out).not.toContain('\n');
  });

  it('leaves lines that are not our JSON records as they are', () => {
    for (const raw of ['plain text', '{not json', '{"no":"level"}', 'Error: boom\n    at x']) {
      expect(prettyLogLine(raw)).toBe(raw);
    }
  });
});

describe('createLogger format', () => {
  it('writes JSON lines to a given destination whatever the format', () => {
    const chunks: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    createLogger({ service: 't', format: 'pretty' }, sink).info({ a: 1 }, 'hello');
    expect(JSON.parse(chunks.join(''))).toMatchObject({ service: 't', a: 1, msg: 'hello' });
  });
});
