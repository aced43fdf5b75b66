import fp from 'fastify-plugin';
import type { Db } from '../../db/client';
import { type DatabaseLocation, openDatabase } from '../../db/open';
import type { Writes } from '../../db/writes';
import { isHttpError } from './errors';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** The write path of the hot writes (form posts, chat messages): db/writes.ts. */
    writes: Writes;
  }
}

/** Opens and migrates the database; closes it last, after sockets and requests are done. */
export default fp(
  async (app, options: { database: DatabaseLocation }) => {
    // A write refused with an HttpError fails alone; it throws before writing anything.
    const database = await openDatabase(options.database, isHttpError);
    app.decorate('db', database.db);
    app.decorate('writes', database.writes);
    app.addHook('onClose', () => database.close());
  },
  { name: 'db' },
);
