import type { Browser } from '@playwright/test';
import { newBenchContext, type Running, signIn } from './admin-dashboard';
import { median } from './stats';

/**
 * The new-chat burst of `npm run bench:admin`: frame times of the signed-in dashboard while 500 and
 * then 2,000 visitors each open a new chat session, beside the same page with no burst.
 */

const burstSizes = [500, 2_000];
const burstBaselineMs = 3_000;
/** Sends in flight at once while a burst is sent. */
const burstSendersAtOnce = 100;

interface BurstSample {
  frameP50: number;
  frameP99: number;
  frameMax: number;
  longFrames: number;
  frames: number;
  /** From the first send until the Chat Sessions card shows every new session. */
  arrivalMs: number;
  /** The page's main-thread time in tasks and in script over the window (CDP Performance). */
  taskMs: number;
  scriptMs: number;
}

interface FrameWindow {
  benchFrames: number[];
  benchStop: boolean;
}

/** Opens a new chat session for each of `count` new visitors, `burstSendersAtOnce` at a time. */
async function sendNewChats(baseURL: string, count: number, run: string): Promise<void> {
  let next = 0;
  const sender = async () => {
    while (next < count) {
      const index = next++;
      const response = await fetch(`${baseURL}/api/chat-message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId: `bench_${run}_${index}`, message: `Flood visitor ${index} asks about pricing` }),
      });
      if (response.status !== 201) throw new Error(`chat send answered ${response.status}: ${await response.text()}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(burstSendersAtOnce, count) }, sender));
}

let burstRun = 0;

/** Frame times of the signed-in dashboard's chat tab while `count` new chats arrive (0: none, for 3 s). */
async function measureBurst(browser: Browser, server: Running, count: number): Promise<BurstSample> {
  const context = await newBenchContext(browser, server);
  // A staff member who allowed notifications: each new message may notify, as in the report.
  await context.grantPermissions(['notifications']);
  const page = await context.newPage();
  await signIn(page);
  await page.getByRole('tab', { name: /Chat Messages/ }).click();
  await page.locator('table[aria-label="Chat Messages"] tr[data-row-index]').first().waitFor();
  // The click is the gesture that unlocks the beep.
  await page.getByRole('heading', { name: 'Admin Dashboard' }).click();
  const countText = page.getByTestId('count-chatSessions').locator('[data-figure]');
  const before = Number((await countText.innerText()).replace(/,/g, ''));

  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const metricsBefore = await cdp.send('Performance.getMetrics');
  await page.evaluate(() => {
    const window = globalThis as unknown as FrameWindow;
    window.benchFrames = [];
    window.benchStop = false;
    let last = performance.now();
    const step = (now: number) => {
      window.benchFrames.push(now - last);
      last = now;
      if (!window.benchStop) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
  const started = performance.now();
  if (count === 0) {
    await page.waitForTimeout(burstBaselineMs);
  } else {
    burstRun += 1;
    await sendNewChats(server.baseURL, count, `${Date.now().toString(36)}${burstRun}`);
    const expected = (before + count).toLocaleString('en-US');
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="count-chatSessions"] [data-figure]')?.textContent === text,
      expected,
      { polling: 100, timeout: 300_000 },
    );
  }
  const arrivalMs = performance.now() - started;
  const frames = await page.evaluate(() => {
    const window = globalThis as unknown as FrameWindow;
    window.benchStop = true;
    return window.benchFrames.slice(1);
  });
  const metricsAfter = await cdp.send('Performance.getMetrics');
  const spentMs = (name: string) =>
    1000 * ((metricsAfter.metrics.find((metric) => metric.name === name)?.value ?? 0) - (metricsBefore.metrics.find((metric) => metric.name === name)?.value ?? 0));
  await context.close();
  const sorted = [...frames].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    frameP50: at(0.5),
    frameP99: at(0.99),
    frameMax: sorted[sorted.length - 1] ?? 0,
    longFrames: frames.filter((frame) => frame > 50).length,
    frames: frames.length,
    arrivalMs: count === 0 ? 0 : arrivalMs,
    taskMs: spentMs('TaskDuration'),
    scriptMs: spentMs('ScriptDuration'),
  };
}

export async function burstPhase(browser: Browser, server: Running, runs: number): Promise<void> {
  const sizes = [0, ...burstSizes];
  const label = (size: number) => (size === 0 ? 'no burst' : `${size.toLocaleString('en-US')} new chats`);
  // A warm-up visit, not counted.
  await measureBurst(browser, server, 0);
  const samples = new Map<number, BurstSample[]>(sizes.map((size) => [size, []]));
  for (let run = 0; run < runs; run++) {
    for (const size of sizes) {
      const sample = await measureBurst(browser, server, size);
      samples.get(size)!.push(sample);
      if (process.env.BENCH_VERBOSE) console.log(`run ${run + 1} ${label(size)}:`, JSON.stringify(sample));
    }
  }
  const summary = sizes.map((size) => {
    const of = (pick: (sample: BurstSample) => number) => median(samples.get(size)!.map(pick));
    return {
      burst: label(size),
      'frame p50 ms': Number(of((sample) => sample.frameP50).toFixed(1)),
      'frame p99 ms': Number(of((sample) => sample.frameP99).toFixed(1)),
      'frame max ms': Math.round(of((sample) => sample.frameMax)),
      'frames > 50 ms': of((sample) => sample.longFrames),
      frames: of((sample) => sample.frames),
      'all shown after ms': size === 0 ? '-' : Math.round(of((sample) => sample.arrivalMs)),
      'page busy ms': Math.round(of((sample) => sample.taskMs)),
      'page script ms': Math.round(of((sample) => sample.scriptMs)),
    };
  });
  console.log(`\nnew-chat burst: staff dashboard on the Chat Messages tab (${server.label}, notifications allowed, audio unlocked);`);
  console.log(`frame times from the first send until the Chat Sessions card shows every new session (no burst: ${burstBaselineMs} ms);`);
  console.log(`visitors send through POST /api/chat-message, ${burstSendersAtOnce} at a time; page busy/script: main-thread time in`);
  console.log(`tasks/script over the window (CDP Performance); median of ${runs} interleaved runs:`);
  console.table(summary);
}
