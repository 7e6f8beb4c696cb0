/** What the gateway tests share about a refused call. */
import { expect } from 'vitest';
import { GatewayError } from '../../electron/gateway/errors.ts';

/** The GatewayError a call rejects with; fails the test when it resolves or rejects with anything else. */
export async function failure(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    return e as GatewayError;
  }
  throw new Error('expected a GatewayError');
}
