/**
 * Order numbers: the gateway's idempotency key, generated locally and never reused.
 *
 * `<terminal>-<YYYYMMDD>-<run>-<seq>`, e.g. `KASA7K2Q-20261123-4XN9QD-0001`:
 * - `terminal`: the till's id; by default `KASA` + four random letters chosen at first start, so two
 *   installations never share it by default.
 * - `run`: six random Crockford base32 characters (30 bits) drawn each time the database is opened. A
 *   database restored from a backup, a reinstalled till, a copied disk or two tills with the same id all
 *   start a new run, so they cannot hand out a number an earlier run already used: the sequence below
 *   lives in the database and goes back with it, the run tag does not.
 * - `seq`: grows by one per order within the run and day, taken inside the capture transaction so a
 *   crash can never hand the same number out twice.
 * Why this matters: docs/outbox.md, "Order numbers are never reused".
 */
import { randomInt } from 'node:crypto';
import type { Db } from '../db/open.ts';
import { perDatabase } from '../db/per-database.ts';
import { dayIn } from '../../shared/i18n/time.ts';

/** Crockford base32: no I, L, O, U, so a tag read aloud or typed is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `length` random Crockford base32 characters from the OS's CSPRNG. */
export function randomTag(length: number): string {
  let tag = '';
  for (let i = 0; i < length; i++) tag += ALPHABET[randomInt(ALPHABET.length)];
  return tag;
}

/** The run tag of this open database: one per process start (and per restore, which needs a restart). */
export const runTag: (db: Db) => string = perDatabase(() => randomTag(6));

const nextInSequence = perDatabase((db: Db) =>
  db.prepare<[string], { last: number }>(
    `INSERT INTO order_sequence (prefix, last) VALUES (?, 1)
     ON CONFLICT(prefix) DO UPDATE SET last = last + 1 RETURNING last`,
  ),
);

/** The next order number (see the module comment). Call it inside the capture transaction. */
export function nextOrderNumber(db: Db, terminalId: string, now: number): string {
  // The shop's day (Belgrade), not the machine's: a till whose clock is set to another zone still numbers by it.
  const day = dayIn(new Date(now)).replaceAll('-', '');
  const prefix = `${terminalId}-${day}-${runTag(db)}`;
  const row = nextInSequence(db).get(prefix);
  const seq = row?.last ?? 1;
  return `${prefix}-${String(seq).padStart(4, '0')}`;
}
