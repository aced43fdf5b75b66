import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { burstQuietMs, createFrameBatcher, pushesAppliedAtOncePerFrame } from './frame-batcher';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** One animation frame (16 ms) goes by. */
function nextFrame(): void {
  vi.advanceTimersByTime(16);
}

describe('createFrameBatcher', () => {
  it('applies a lone push at once, and a frame of many as its first few and then one batch, in order', () => {
    const applied: number[][] = [];
    const batcher = createFrameBatcher<number>((items) => applied.push(items));
    batcher.push(1);
    expect(applied).toEqual([[1]]);
    for (let item = 2; item <= 10; item++) batcher.push(item);
    const atOnce = Array.from({ length: pushesAppliedAtOncePerFrame - 1 }, (_, index) => [index + 2]);
    expect(applied).toEqual([[1], ...atOnce]);
    nextFrame();
    expect(applied).toEqual([[1], ...atOnce, Array.from({ length: 10 - pushesAppliedAtOncePerFrame }, (_, index) => index + pushesAppliedAtOncePerFrame + 1)]);
  });

  it('while a burst goes on, applies once a frame from the first push; after a quiet moment, at once again', () => {
    const applied: string[][] = [];
    const batcher = createFrameBatcher<string>((items) => applied.push(items));
    for (let item = 0; item < 20; item++) batcher.push(`a${item}`);
    nextFrame();
    const calls = applied.length;
    batcher.push('b1');
    batcher.push('b2');
    expect(applied).toHaveLength(calls);
    nextFrame();
    expect(applied.slice(calls)).toEqual([['b1', 'b2']]);
    vi.advanceTimersByTime(burstQuietMs);
    batcher.push('c1');
    expect(applied.at(-1)).toEqual(['c1']);
  });

  it('drops what is queued when disposed', () => {
    const apply = vi.fn();
    const batcher = createFrameBatcher<number>(apply);
    for (let item = 0; item < 20; item++) batcher.push(item);
    const calls = apply.mock.calls.length;
    batcher.dispose();
    vi.advanceTimersByTime(1000);
    expect(apply).toHaveBeenCalledTimes(calls);
  });

  it('says when what is queued has been applied: at once with nothing queued, else after the frame that applies it', async () => {
    const applied: number[][] = [];
    const batcher = createFrameBatcher<number>((items) => applied.push(items));
    let drained = false;
    await batcher.drained();
    for (let item = 1; item <= pushesAppliedAtOncePerFrame + 2; item++) batcher.push(item);
    void batcher.drained().then(() => {
      drained = true;
    });
    await Promise.resolve();
    expect(drained).toBe(false);
    nextFrame();
    await Promise.resolve();
    expect(drained).toBe(true);
    expect(applied.flat()).toHaveLength(pushesAppliedAtOncePerFrame + 2);
  });
});
