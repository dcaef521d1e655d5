import { z } from 'zod';
import { loadEnv } from './load-env';
import { trustProxySetting } from './trust-proxy.env';

const schema = z.object({ TRUST_PROXY: trustProxySetting });
const parse = (v?: string) => loadEnv(schema, v === undefined ? {} : { TRUST_PROXY: v }).TRUST_PROXY;

describe('TRUST_PROXY', () => {
  test('default and empty: no proxy is trusted', () => {
    expect(parse()).toBe(false);
    expect(parse('')).toBe(false);
    expect(parse('false')).toBe(false);
  });

  test('true, a hop count, or addresses, subnets and range names as Express takes them', () => {
    expect(parse('true')).toBe(true);
    expect(parse('1')).toBe(1);
    expect(parse('loopback')).toEqual(['loopback']);
    expect(parse('10.0.0.0/8, fd00::/8 ,192.168.1.7,uniquelocal')).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      '192.168.1.7',
      'uniquelocal',
    ]);
  });

  test('anything else is refused, naming the bad entries', () => {
    expect(() => parse('yes')).toThrow(/TRUST_PROXY: .*not: yes/);
    expect(() => parse('10.0.0.0/33, loopback')).toThrow(/not: 10\.0\.0\.0\/33/);
    expect(() => parse('proxy.example.com')).toThrow(/not: proxy\.example\.com/);
  });
});
