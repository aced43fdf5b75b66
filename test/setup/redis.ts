import type { TestProject } from 'vitest/node';
import { startRedis } from '../../scripts/services/redis';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A throwaway Redis for the whole run (the `server-scaled` project); each test server takes its own key prefix. */
    redisUrl: string;
  }
}

/** Vitest globalSetup: one Redis per run, stopped when the run ends. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await startRedis();
  project.provide('redisUrl', redis.url);
  return () => redis.stop();
}
