import type { Db } from '../../../db/client';
import {
  type Assignee,
  assigneeNotFoundMessage,
  type AutoAssignmentSettings,
  autoAssignmentSettingsSchema,
  defaultAutoAssignment,
} from '../../contract/assignment';
import { staffDisplayName, staffRoleSchema } from '../../contract/auth';
import type { Tx } from '../../events';
import { HttpError } from '../../plugins/errors';
import * as repository from './assignment.repository';

const autoAssignmentKey = 'auto-assignment';

function toAssignee(row: repository.AssigneeRow, online: ReadonlySet<number>): Assignee {
  const id = Number(row.id);
  return { id, name: staffDisplayName(row), role: staffRoleSchema.catch('agent').parse(row.role), online: online.has(id) };
}

/** Every staff member, with whether they are online (`online`: the ids with a live dashboard socket). */
export async function listAssignees(db: Db, online: readonly number[]): Promise<Assignee[]> {
  const onlineIds = new Set(online);
  return (await repository.listAssigneeRows(db)).map((row) => toAssignee(row, onlineIds));
}

/** The staff member a conversation or lead is to be given to; a 400 for an id that is nobody's. */
export async function assigneeOrRefuse(db: Db, id: number): Promise<Assignee> {
  const row = await repository.findAssigneeRow(db, id);
  if (!row) throw new HttpError(400, assigneeNotFoundMessage);
  return toAssignee(row, new Set());
}

function parsedSettings(stored: string | undefined): AutoAssignmentSettings {
  if (stored === undefined) return defaultAutoAssignment;
  try {
    return autoAssignmentSettingsSchema.catch(defaultAutoAssignment).parse(JSON.parse(stored));
  } catch {
    return defaultAutoAssignment;
  }
}

export async function autoAssignmentSettings(db: Db): Promise<AutoAssignmentSettings> {
  return parsedSettings(await repository.readSetting(db, autoAssignmentKey));
}

/** The settings, read under their row's lock: auto-assignment's writes take turns on it (PostgreSQL). */
export async function autoAssignmentSettingsLocked(tx: Tx): Promise<AutoAssignmentSettings> {
  return parsedSettings(await repository.readSettingLocked(tx.db, autoAssignmentKey));
}

/** Saves the settings in the caller's write, under the same lock; answers what was there before. */
export async function saveAutoAssignmentSettings(tx: Tx, settings: AutoAssignmentSettings): Promise<AutoAssignmentSettings> {
  const before = await autoAssignmentSettingsLocked(tx);
  await repository.writeSetting(tx.db, autoAssignmentKey, JSON.stringify(settings), Date.now());
  return before;
}
