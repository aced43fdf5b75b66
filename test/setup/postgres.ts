import type { TestProject } from 'vitest/node';
import { startPostgres } from '../../scripts/services/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's PostgreSQL (project `server-scaled`); each test server makes its own database on it. */
    postgresUrl?: string;
  }
}

/** Vitest globalSetup of the `server-scaled` project: one throwaway PostgreSQL for the whole run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await startPostgres();
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
