import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from './db';

/**
 * Secrets every process of one deployment must share without anyone configuring them (the key of
 * screenshot URLs when SCREENSHOT_URL_SECRET is unset): 32 random bytes in a PostgreSQL row, written
 * by whichever replica asks first (INSERT … ON CONFLICT DO NOTHING), then read by all. A deployment
 * is its database, so another deployment never holds the same secret.
 */
export class DeploymentSecretsRepository {
  constructor(private readonly db: Db) {}

  async getOrCreate(name: string): Promise<Buffer> {
    await this.db.prisma.deploymentSecret.createMany({
      data: [{ name, value: new Uint8Array(randomBytes(32)) }],
      skipDuplicates: true,
    });
    const row = await this.db.prisma.deploymentSecret.findUniqueOrThrow({
      where: { name },
      select: { value: true },
    });
    return Buffer.from(row.value);
  }
}

/**
 * A key for one purpose from a secret (configured or stored): HMAC-SHA256(secret, purpose), so the
 * same secret never keys two different things.
 */
export function derivePurposeKey(secret: string | Buffer, purpose: string): Buffer {
  return createHmac('sha256', secret).update(purpose).digest();
}
