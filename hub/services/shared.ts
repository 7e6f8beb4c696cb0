/**
 * What the hub service's areas share (hub/service.ts composes them; docs/hub.md "Where the hub's code lives"): the
 * deps every area's factory takes, the till a credential proved, the master-data lock, the products' row mapper
 * and a till's gaps.
 */
import crypto from 'node:crypto';
import type { HubDb, Queryable } from '../db/db.ts';
import { DEFAULT_HUB_TIME_ZONE } from '../report-days.ts';
import type { HubSefLink } from './sef.ts';

export interface AuthedTill {
  id: number;
  shopId: number;
  name: string;
}

export interface HubServiceOptions {
  now?: () => Date;
  /** How long a new enrolment code may be spent (default 24 h; `KASA_HUB_ENROL_CODE_HOURS`). */
  enrolCodeTtlMs?: number;
  /** The shops' calendar day for stored day totals (hub/report-days.ts; `KASA_HUB_TIME_ZONE`). */
  timeZone?: string;
  /** The shop's SEF link when the hub sends its e-invoices (hub/sef-link.ts), else null. */
  sef?: () => HubSefLink | null;
  /** Called when a push made an e-invoice (the SEF worker's kick). */
  onSefQueued?: () => void;
  log?: (line: string) => void;
}

export const DEFAULT_ENROL_CODE_TTL_MS = 24 * 3600_000;

/** What each area's factory takes: the database, the service's clock and its settings. */
export interface HubDeps {
  db: HubDb;
  now: () => Date;
  iso: () => string;
  codeTtl: number;
  zone: string;
  sef: () => HubSefLink | null;
  onSefQueued: () => void;
  log?: ((line: string) => void) | undefined;
}

/** The deps of one service, from its options. */
export function hubDeps(db: HubDb, options: HubServiceOptions): HubDeps {
  const now = options.now ?? (() => new Date());
  const iso = (): string => now().toISOString();
  const codeTtl = options.enrolCodeTtlMs ?? DEFAULT_ENROL_CODE_TTL_MS;
  const zone = options.timeZone ?? DEFAULT_HUB_TIME_ZONE;
  return {
    db,
    now,
    iso,
    codeTtl,
    zone,
    sef: options.sef ?? (() => null),
    onSefQueued: options.onSefQueued ?? (() => undefined),
    log: options.log,
  };
}

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * The areas' methods as one object, like the till's `composeHandlers` (electron/dispatch.ts): a method name two
 * areas provide stops the start, so the method a reader finds in an area's module is the one that runs.
 */
export function composeAreas<T extends Record<string, object>>(areas: T): Intersection<T[keyof T]> {
  const out: Record<string, unknown> = {};
  const provider = new Map<string, string>();
  for (const [area, methods] of Object.entries(areas))
    for (const [name, method] of Object.entries(methods)) {
      const earlier = provider.get(name);
      if (earlier !== undefined) throw new Error(`hub service: ${name} in both ${earlier} and ${area}`);
      provider.set(name, area);
      out[name] = method;
    }
  return out as Intersection<T[keyof T]>;
}

export const sha256 = (s: string): string => crypto.createHash('sha256').update(s).digest('hex');

/** A row of the hub's `products` table. */
export interface ProductRow {
  code: string;
  name: string;
  price_para: number;
  label: string;
  unit: 'piece' | 'kg' | 'l';
  grp: string | null;
  favourite: boolean;
  barcodes: string[];
  deleted: boolean;
  version: number;
}

/** A product row as the contract names its fields. */
export const productOf = (p: ProductRow) => ({
  code: p.code,
  name: p.name,
  pricePara: p.price_para,
  label: p.label,
  unit: p.unit,
  group: p.grp,
  favourite: p.favourite,
  barcodes: p.barcodes,
});

/** Gaps in a till's received sequence, as ranges (above its pruned floor, hub/events.ts). */
export async function gapsOf(q: Queryable, tillId: number): Promise<{ from: number; to: number }[]> {
  const rows = await q.query<{ from_seq: number; to_seq: number }>(
    `WITH f AS (SELECT events_floor AS floor FROM tills WHERE id = $1)
     SELECT seq + 1 AS from_seq, next - 1 AS to_seq FROM (
       SELECT seq, lead(seq) OVER (ORDER BY seq) AS next FROM till_events WHERE till_id = $1 AND seq > (SELECT floor FROM f)
       UNION ALL SELECT (SELECT floor FROM f) AS seq,
                        (SELECT min(seq) FROM till_events WHERE till_id = $1 AND seq > (SELECT floor FROM f)) AS next
     ) s WHERE next > seq + 1 ORDER BY from_seq`,
    [tillId],
  );
  return rows.map((r) => ({ from: r.from_seq, to: r.to_seq }));
}

/** Bumps the change cursor; callers hold the master-data lock so versions commit in order. */
export async function lockMasterData(q: Queryable): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(715002)');
}
