import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Folders the server creates for its data: readable by its own user only. */
export const privateFolderMode = 0o700;
/** Files the server creates for its data (the database, its WAL, mails, the session secret). */
export const privateFileMode = 0o600;

/**
 * Creates a file (the database), and its folder, readable by the server's user only, unless it exists.
 * SQLite would create it 0644; it gives the WAL and shared-memory files the main file's mode.
 */
export function createPrivateFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: privateFolderMode });
  try {
    closeSync(openSync(path, 'wx', privateFileMode));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
