/**
 * SSRF vectors for the matrix test, and the answer each must get. `port` is the trap listener's
 * (127.0.0.1 and ::1): every loopback notation points at it, so a vector that got through would
 * show up as a connection. Non-local ranges (RFC 1918, metadata, ULA…) have nothing listening:
 * they are judged by the refusal code and by answering faster than a connect attempt could fail.
 */
import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import { isForbiddenAddress } from '@wcs/net';

export type RefusalCode = 'TARGET_FORBIDDEN' | 'INVALID_URL' | 'DNS_RESOLUTION_FAILED';

export interface SsrfVector {
  group: 'loopback' | 'private range' | 'scheme' | 'credentials' | 'dns name';
  name: string;
  url: string;
  /** What every endpoint answers (400 with this code), decided before any connection. */
  code: RefusalCode;
  /** Points at the trap listener. */
  local: boolean;
}

const loopbackHosts = [
  '127.0.0.1',
  '127.1',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  '127.000.000.001',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '0.0.0.0',
  '0',
  '127.127.127.127',
  '[0:0:0:0:0:0:0:1]',
];

const privateHosts = [
  '10.0.0.1',
  '172.16.0.1',
  '192.168.1.1',
  '100.64.0.1',
  '169.254.169.254',
  '[fd00::1]',
  '[fc00::1]',
  '[fe80::1]',
  '[fd00:ec2::254]',
  '[::ffff:10.0.0.1]',
  '[::ffff:a9fe:a9fe]',
  '[64:ff9b::a00:1]',
  '[2002:a00:1::1]',
  '[::]',
  '224.0.0.1',
  '255.255.255.255',
  '192.0.2.1',
];

/** Names in /etc/hosts that point at a private address (`localhost`, the machine's own names). */
function hostsFileNames(): string[] {
  let text = '';
  try {
    text = readFileSync('/etc/hosts', 'utf8');
  } catch {
    return [];
  }
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const [ip, ...hosts] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (!ip || !isForbiddenAddress(ip)) continue;
    for (const h of hosts) if (h && h !== 'localhost') names.add(h);
  }
  return [...names].slice(0, 6);
}

/** How the name resolves here: a private answer is forbidden, no answer is a DNS failure. */
async function dnsCode(host: string): Promise<RefusalCode> {
  try {
    const found = await dns.promises.lookup(host, { all: true });
    return found.some((a) => isForbiddenAddress(a.address)) ? 'TARGET_FORBIDDEN' : 'DNS_RESOLUTION_FAILED';
  } catch {
    return 'DNS_RESOLUTION_FAILED';
  }
}

export async function ssrfVectors(port: number): Promise<SsrfVector[]> {
  const out: SsrfVector[] = [];
  for (const h of loopbackHosts) {
    out.push({
      group: 'loopback',
      name: h,
      url: `http://${h}:${port}/`,
      code: 'TARGET_FORBIDDEN',
      local: true,
    });
  }
  for (const h of privateHosts) {
    out.push({
      group: 'private range',
      name: h,
      url: `http://${h}/latest/meta-data/`,
      code: 'TARGET_FORBIDDEN',
      local: false,
    });
  }
  for (const url of [
    'file:///etc/passwd',
    `gopher://127.0.0.1:${port}/_GET%20/`,
    `ftp://127.0.0.1:${port}/`,
    'data:text/html,<h1>x</h1>',
    'javascript:alert(1)',
    `dict://127.0.0.1:${port}/info`,
  ]) {
    out.push({ group: 'scheme', name: url.split(':')[0] as string, url, code: 'INVALID_URL', local: true });
  }
  for (const url of [`http://user:pass@127.0.0.1:${port}/`, `http://user@93.184.215.14/`]) {
    out.push({
      group: 'credentials',
      name: url.replace(/:\d+\//, '/'),
      url,
      code: 'INVALID_URL',
      local: true,
    });
  }
  for (const name of ['localhost', 'LOCALHOST.', 'localhost.localdomain', 'a.localhost']) {
    out.push({
      group: 'dns name',
      name,
      url: `http://${name}:${port}/`,
      code: await dnsCode(name),
      local: true,
    });
  }
  // Single-label names never pass the gateway's syntax check (no dot): refused before DNS.
  for (const name of hostsFileNames()) {
    const code = name.includes('.') ? await dnsCode(name) : 'INVALID_URL';
    out.push({
      group: 'dns name',
      name: `${name} (/etc/hosts)`,
      url: `http://${name}:${port}/`,
      code,
      local: true,
    });
  }
  return out;
}
