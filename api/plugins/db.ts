import fp from 'fastify-plugin';
import type SQLite from 'better-sqlite3';
import { startCheckpointer } from '../../db/checkpointer';
import { createDb, type Db } from '../../db/client';
import { GroupCommit } from '../../db/group-commit';
import { migrateToLatest } from '../../db/migrate';
import { isHttpError } from './errors';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** The group commit of the hot writes (form posts, chat messages): one transaction per event-loop turn. */
    writes: GroupCommit;
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
    // A write refused with an HttpError fails alone; it throws before writing anything.
    app.decorate('writes', new GroupCommit(db, isHttpError));
    const checkpointer = options.databasePath === ':memory:' ? null : startCheckpointer(sqlite, options.databasePath);
    app.addHook('onClose', async () => {
      await checkpointer?.stop();
      await db.destroy();
    });
  },
  { name: 'db' },
);
