import type { Migration } from 'kysely';
import * as initial from './2026-11-21T0000_initial';

/** Every migration, in order. Add new files here; never edit a landed one. */
export const migrations: Record<string, Migration> = {
  '2026-11-21T0000_initial': initial,
};
