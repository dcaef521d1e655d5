import { isIP } from 'node:net';
import { z } from 'zod';

/** Express's names for address ranges (`trust proxy`), besides addresses and CIDR subnets. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrSubnet(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY, Express's `trust proxy`: which hops in front of the gateway may set
 * X-Forwarded-For/-Proto/-Host. `false` (default: nobody, the headers are ignored), `true` (every
 * hop: only when the gateway is reachable through the proxy alone), a hop count (`1`), or addresses,
 * subnets and range names (`loopback`, `10.0.0.0/8, fd00::/8`).
 */
export const trustProxySetting = z
  .string()
  .optional()
  .transform((v, ctx): boolean | number | string[] => {
    const value = v?.trim().toLowerCase() ?? '';
    if (value === '' || value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((e) => e.trim());
    const bad = entries.filter((e) => !isAddressOrSubnet(e));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be false, true, a hop count, or addresses/subnets (loopback, 10.0.0.0/8); not: ${bad.join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });
