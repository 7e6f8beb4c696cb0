/**
 * How every goods document of the hub is made (docs/goods.md "At the hub"): the instant and the shop's day taken
 * once, one transaction, the numbered document opened in it, its lines moved by the caller, then its value and
 * detail written. A refusal anywhere rolls it all back, its number included.
 */
import type { HubGoodsDoc } from '../../shared/hub/goods-protocol.ts';
import type { Queryable } from '../db/db.ts';
import type { HubDeps } from '../services/shared.ts';
import { hubDay, hubDocument, setHubDocValue, type HubDocKind } from './ledger.ts';

/** A document's number as it is printed: `<number>/<year>`. */
export const docNumber = (n: number, y: number): string => `${n}/${y}`;

/** The instant and the shop's day of a change, and the transaction it runs in. */
export function inHubDay<T>(
  deps: Pick<HubDeps, 'db' | 'iso' | 'zone'>,
  fn: (q: Queryable, at: string, day: string) => Promise<T>,
): Promise<T> {
  const at = deps.iso();
  const day = hubDay(at, deps.zone);
  return deps.db.tx((q) => fn(q, at, day));
}

/** The document opened for the caller's lines: its id (the movements' source), number, instant and day. */
export interface OpenHubDoc {
  id: number;
  number: number;
  year: number;
  at: string;
  day: string;
}

/**
 * Posts a numbered goods document of `kind`: `fn` moves its lines (source `<kind>:<id>`) and answers its value and
 * detail, which are written on it. The document as the contract answers it.
 */
export function postHubDocument(
  deps: Pick<HubDeps, 'db' | 'iso' | 'zone'>,
  shopId: number,
  kind: HubDocKind,
  actor: string | null,
  fn: (q: Queryable, doc: OpenHubDoc) => Promise<{ valuePara: number; detail: Record<string, unknown> }>,
): Promise<HubGoodsDoc> {
  return inHubDay(deps, async (q, at, day) => {
    const opened = await hubDocument(q, shopId, { kind, at, day, actor, valuePara: 0, detail: {} });
    const { valuePara, detail } = await fn(q, { ...opened, at, day });
    await setHubDocValue(q, opened.id, valuePara, detail);
    return { id: opened.id, number: docNumber(opened.number, opened.year), kind, at, day, actor, valuePara, detail };
  });
}
