import fp from 'fastify-plugin';
import type SQLite from 'better-sqlite3';
import { startCheckpointer } from '../../db/checkpointer';
import { createDb, type Db } from '../../db/client';
import { migrateToLatest } from '../../db/migrate';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    sqlite: SQLite.Database;
  }
}

/** Opens and migrates the database; closes it last, after sockets and requests are done. */
export default fp(
  async (app, options: { databasePath: string }) => {
    const { db, sqlite } = createDb(options.databasePath);
    await migrateToLatest(db);
    app.decorate('db', db);
    app.decorate('sqlite', sqlite);
    const checkpointer = options.databasePath === ':memory:' ? null : startCheckpointer(sqlite, options.databasePath);
    app.addHook('onClose', async () => {
      await checkpointer?.stop();
      await db.destroy();
    });
  },
  { name: 'db' },
);
