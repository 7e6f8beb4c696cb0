import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../shared/contract/index.ts';
import { channelOf, isTrustedSender, registerCommands, type IpcEventLike } from './ipc.ts';
import { createLogger } from './log/logger.ts';

describe('ipc registration', () => {
  it('registers one handler per command, refuses untrusted senders, and passes input to the core', async () => {
    const handlers = new Map<string, (e: IpcEventLike, input: unknown) => Promise<unknown>>();
    const calls: [string, unknown][] = [];
    registerCommands(
      { handle: (c, l) => handlers.set(c, l), removeHandler: (c) => handlers.delete(c) },
      {
        dispatch: async (name, input) => {
          calls.push([name, input]);
          return { ok: true, value: 'done' };
        },
        logger: createLogger({ echo: false }),
      },
    );
    expect([...handlers.keys()].sort()).toEqual(COMMAND_NAMES.map(channelOf).sort());
    const checkout = handlers.get('pos:sales.checkout')!;
    expect(await checkout({ senderFrame: { url: 'https://evil.example/' } }, {})).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await checkout({ senderFrame: null }, {})).toMatchObject({ ok: false });
    expect(await checkout({ senderFrame: { url: 'app://kasa/index.html' } }, { a: 1 })).toEqual({
      ok: true,
      value: 'done',
    });
    expect(calls).toEqual([['sales.checkout', { a: 1 }]]);
  });

  it('trusts only app://kasa pages', () => {
    expect(isTrustedSender({ senderFrame: { url: 'app://kasa/index.html' } })).toBe(true);
    expect(isTrustedSender({ senderFrame: { url: 'app://other/index.html' } })).toBe(false);
    expect(isTrustedSender({ senderFrame: { url: 'file:///etc/passwd' } })).toBe(false);
  });
});
