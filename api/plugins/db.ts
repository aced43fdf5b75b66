import fp from 'fastify-plugin';
import type { Db } from '../../db/client';
import { type DatabaseLocation, openDatabase } from '../../db/open';
import type { Transactions } from '../../db/writes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reads. Modules change data only through `app.write` (api/events). */
    db: Db;
    /** How a write reaches the database (db/writes.ts): used by `app.write` alone. */
    transactions: Transactions;
  }
}

/** Opens and migrates the database; closes it last, after sockets and requests are done. */
export default fp(
  async (app, options: { database: DatabaseLocation; slowBatchMs?: number }) => {
    const database = await openDatabase(options.database, { log: app.log.child({ module: 'db' }), slowBatchMs: options.slowBatchMs });
    app.decorate('db', database.db);
    app.decorate('transactions', database.transactions);
    app.addHook('onClose', () => database.close());
  },
  { name: 'db' },
);
