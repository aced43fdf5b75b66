import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** Creates a fresh, empty database on the PostgreSQL server of `superuserUrl` (tests, benches); answers its URL. */
export async function createPostgresDatabase(superuserUrl: string): Promise<string> {
  const name = `lotwise_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(superuserUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
