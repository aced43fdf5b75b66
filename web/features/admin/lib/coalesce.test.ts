import { describe, expect, it } from 'vitest';
import { coalesceRequests } from './coalesce';

/** Lets queued microtasks and settled promises run. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
}

function controlledRuns() {
  const runs: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const run = () => new Promise<void>((resolve, reject) => runs.push({ resolve, reject }));
  return { runs, run };
}

describe('coalesceRequests', () => {
  it('makes one run for every ask of one task, after that task', async () => {
    const { runs, run } = controlledRuns();
    const request = coalesceRequests(run);
    for (let index = 0; index < 2000; index++) request.ask();
    expect(runs).toHaveLength(0);
    await settle();
    expect(runs).toHaveLength(1);
  });

  it('keeps asks made during a run as one more run, started when it ends', async () => {
    const { runs, run } = controlledRuns();
    const request = coalesceRequests(run);
    request.ask();
    await settle();
    for (let index = 0; index < 50; index++) {
      request.ask();
      await settle();
    }
    expect(runs).toHaveLength(1);
    runs[0]!.resolve();
    await settle();
    expect(runs).toHaveLength(2);
    runs[1]!.resolve();
    await settle();
    expect(runs).toHaveLength(2);
  });

  it('goes on after a failed run, and starts nothing once disposed', async () => {
    const { runs, run } = controlledRuns();
    const request = coalesceRequests(run);
    request.ask();
    await settle();
    request.ask();
    runs[0]!.reject(new Error('offline'));
    await settle();
    expect(runs).toHaveLength(2);
    request.dispose();
    runs[1]!.resolve();
    request.ask();
    await settle();
    expect(runs).toHaveLength(2);
  });
});
