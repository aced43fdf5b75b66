import type { ColumnType, Generated } from 'kysely';

/** Column types the table interfaces share (db/schema.ts, db/schema.chat.ts). */

export type Id = Generated<number>;
export type SqlBoolean = ColumnType<number, number | undefined, number>;
export type OptionalId = ColumnType<number | null, number | null | undefined, number | null>;
export type OptionalText = ColumnType<string | null, string | null | undefined, string | null>;
