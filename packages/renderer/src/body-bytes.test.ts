import { BodyBytes } from './body-bytes';

const chunks = (n: number, size: number) => Array.from({ length: n }, (_, i) => Buffer.alloc(size, i % 251));

describe('BodyBytes', () => {
  it('copies into one buffer of the declared length once presized, filling its own ArrayBuffer', () => {
    const parts = chunks(10, 1_000);
    const body = new BodyBytes(10_000);
    body.push(parts[0] as Buffer);
    expect(body.head()).toEqual(parts[0]);
    body.presize();
    for (const c of parts.slice(1)) body.push(c);
    const out = body.bytes();
    expect(out).toEqual(Buffer.concat(parts));
    expect(out.byteOffset).toBe(0);
    expect(out.buffer.byteLength).toBe(10_000);
  });

  it('falls back to chunks when the server sends more than it declared', () => {
    const parts = chunks(3, 100);
    const body = new BodyBytes(150);
    body.push(parts[0] as Buffer);
    body.presize();
    body.push(parts[1] as Buffer);
    body.push(parts[2] as Buffer);
    expect(body.size).toBe(300);
    expect(body.bytes()).toEqual(Buffer.concat(parts));
  });

  it('collects chunks without a declared length, and returns what arrived when less came', () => {
    const parts = chunks(4, 10);
    const none = new BodyBytes(undefined);
    none.presize();
    for (const c of parts) none.push(c);
    expect(none.bytes()).toEqual(Buffer.concat(parts));
    const short = new BodyBytes(100);
    short.presize();
    short.push(parts[0] as Buffer);
    expect(short.bytes()).toEqual(parts[0]);
  });
});
