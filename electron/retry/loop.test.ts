/** createSyncLoop: a fixed interval, or each pass timed from the last (backoff, or the pass's own time). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSyncLoop, type PassOutcome } from './loop.ts';

afterEach(() => vi.useRealTimers());

/**
 * A loop timed after each pass whose pass counts its runs (`pass` is told which run it is), and `after`: moves the
 * fake clock on by `ms` and checks how many passes have run by then.
 */
function countingLoop(pass: (run: number) => Promise<PassOutcome>) {
  let runs = 0;
  const loop = createSyncLoop(() => pass(++runs), { afterPass: true });
  const after = async (ms: number, expected: number): Promise<void> => {
    await vi.advanceTimersByTimeAsync(ms);
    expect(runs, `${ms} ms on`).toBe(expected);
  };
  return { loop, after, runs: () => runs };
}

describe('createSyncLoop', () => {
  it('backs off after failures in a row by its policy, and keeps its interval after a pass that works', async () => {
    vi.useFakeTimers();
    const outcomes: PassOutcome[] = ['failed', 'failed', 'failed', undefined, undefined];
    const at: number[] = [];
    const loop = createSyncLoop(
      async () => {
        at.push(Date.now());
        return outcomes.shift();
      },
      { backoff: { baseMs: 100, capMs: 250, jitter: 'none' } },
    );
    const t0 = Date.now();
    loop.start(10);
    await vi.advanceTimersByTimeAsync(1000);
    await loop.stop();
    // Passes at 0; failures wait 100, 200, 250 (capped); then the 10 ms interval.
    expect(at.slice(0, 6).map((t) => t - t0)).toEqual([0, 100, 300, 550, 560, 570]);
  });

  it('lets a pass name its next time, runs at once on kick, and runs no asked-for pass after stop', async () => {
    vi.useFakeTimers();
    let release: () => void = () => {};
    const { loop, after, runs } = countingLoop(async (run) => {
      if (run === 3) await new Promise<void>((r) => (release = r));
      return { nextInMs: 500 };
    });
    loop.kick(); // not started: nothing
    expect(runs()).toBe(0);
    loop.start(60_000);
    await after(0, 1);
    await after(499, 1);
    loop.kick();
    await after(0, 2);
    await after(500, 3); // under way, held
    loop.kick(); // asks for one more...
    const stopped = loop.stop(); // ...which stop cancels
    release();
    await stopped;
    await after(5000, 3);
  });

  it('waits for its first kick when told to, and keeps no timer after an idle pass', async () => {
    vi.useFakeTimers();
    const outcomes: PassOutcome[] = [{ nextInMs: 100 }, 'idle', 'idle'];
    const { loop, after } = countingLoop(async () => outcomes.shift());
    loop.start(10, Infinity);
    await after(1000, 0);
    loop.kick();
    await after(0, 1);
    await after(100, 2); // idle: no timer now
    await after(10_000, 2);
    loop.kick();
    await after(0, 3);
    await loop.stop();
  });

  it('never loses a call made while a pass is ending: it runs once more, whatever the moment', async () => {
    for (let depth = 0; depth < 12; depth++) {
      let runs = 0;
      let late: Promise<void> | null = null;
      const loop = createSyncLoop(async () => {
        runs++;
        if (runs > 1) return;
        // A call `depth` microtasks after this pass returned.
        let hop: Promise<void> = Promise.resolve();
        for (let i = 0; i < depth; i++) hop = hop.then(() => undefined);
        void hop.then(() => (late = loop.sync()));
      });
      await loop.sync();
      for (let i = 0; i < 20 && late === null; i++) await Promise.resolve();
      await late;
      expect({ depth, runs }).toEqual({ depth, runs: 2 });
    }
  });

  it('calls a synchronous pass directly on each tick, without a promise', () => {
    vi.useFakeTimers();
    let ticks = 0;
    const loop = createSyncLoop(() => {
      ticks++;
    });
    loop.start(100, 100);
    vi.advanceTimersByTime(1000);
    expect(ticks).toBe(10);
    void loop.stop();
    vi.advanceTimersByTime(1000);
    expect(ticks).toBe(10);
  });
});
