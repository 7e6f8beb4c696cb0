/** The outbox's sync with the gateway: its state, and a pass now. */
import { command, event } from './define.ts';
import * as s from './schemas.ts';
import type { SyncStatus } from '../domain.ts';

export const syncCommands = {
  'sync.status': command<SyncStatus>('public')(s.empty, 'Online state, queue size, the oldest unfiscalized order.'),
  'sync.now': command<SyncStatus>('session')(
    s.empty,
    'Retries every queued order now (backoff forgotten, auth pause lifted, gateway probed) and runs a sync pass.',
  ),
} as const;

export const syncEvents = {
  'sync.status': event<SyncStatus>('The sync engine went online/offline, paused, or the queue changed.'),
} as const;
