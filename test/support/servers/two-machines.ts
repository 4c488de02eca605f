import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { postgresStore } from '../../../src/stores/postgres.js';
import { formBody, freshFields } from '../notification.js';
import { startPostgres, type TestPostgres } from './postgres.js';
import { startRedis, type TestRedis } from './redis.js';

/** What each of two machines holds: a pool on one PostgreSQL, a client of one Redis. */
export interface TwoMachines {
  readonly pools: pg.Pool[];
  readonly clients: Redis[];
}

/**
 * Two machines (a pool or a client each) on one real PostgreSQL and one Redis on 127.0.0.1, started before the
 * file's tests and stopped after them; the database is migrated and holds an `effects (key, machine)` table with
 * no unique constraint, so a second effect shows up as a second row instead of being stopped by the database.
 */
export function twoMachines(): TwoMachines {
  let postgres: TestPostgres | undefined;
  let redis: TestRedis | undefined;
  const machines: TwoMachines = { pools: [], clients: [] };
  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    for (let i = 0; i < 2; i++) {
      machines.pools.push(new pg.Pool({ connectionString: postgres.url, max: 4 }));
      machines.clients.push(new Redis(redis.url));
    }
    await postgresStore({ pool: machines.pools[0]! }).migrate();
    await machines.pools[0]!.query('CREATE TABLE effects (key text NOT NULL, machine int NOT NULL)');
  });
  afterAll(async () => {
    await Promise.all(machines.pools.map((pool) => pool.end()));
    for (const client of machines.clients) client.disconnect();
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });
  return machines;
}

/** Six deliveries of a fresh `fields` notification, alternating between two processors, and one payment; resolves to each [answer, outcome]. */
export async function deliverSixAndAPayment(processors: readonly { handle(body: string): Promise<{ body: string; outcome: { kind: string } }> }[], fields: Readonly<Record<string, string>>) {
  const event = formBody(freshFields({}, fields));
  const payment = formBody(freshFields());
  const replies = await Promise.all([...Array.from({ length: 6 }, (_, i) => processors[i % 2]!.handle(event)), processors[1]!.handle(payment)]);
  return replies.map((reply) => [reply.body, reply.outcome.kind]);
}
