import { describe, expect, it, vi } from 'vitest';
import { COMMAND_NAMES, EVENT_NAMES } from '../shared/contract/index.ts';

const exposed: Record<string, unknown> = {};
const invoke = vi.fn(async (channel: string, input: unknown) => ({ ok: true, value: { channel, input } }));
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
  ipcRenderer: { invoke, on: vi.fn(), removeListener: vi.fn() },
}));

describe('preload', () => {
  it('exposes window.pos with exactly the contract commands (plus on), each a function', async () => {
    await import('./preload.ts');
    const pos = exposed['pos'] as Record<string, unknown>;
    expect(Object.keys(pos).sort()).toEqual([...COMMAND_NAMES, 'on'].sort());
    for (const name of COMMAND_NAMES) expect(typeof pos[name]).toBe('function');
    expect(Object.isFrozen(pos)).toBe(true);
    const checkout = pos['sales.checkout'] as (i: unknown) => Promise<unknown>;
    await checkout({ lines: [] });
    expect(invoke).toHaveBeenCalledWith('pos:sales.checkout', { lines: [] });
  });

  it('subscribes only to contract events', async () => {
    await import('./preload.ts');
    const on = (exposed['pos'] as { on: (e: string, l: () => void) => () => void }).on;
    for (const e of EVENT_NAMES) expect(typeof on(e, () => undefined)).toBe('function');
    expect(() => on('anything', () => undefined)).toThrow(/unknown event/);
  });
});
