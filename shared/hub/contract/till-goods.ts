/**
 * What a till enrolled at a hub enters for the shop's book with its credential (docs/goods.md "What a till enrolled
 * at a hub still does itself, and how it merges"; docs/hub.md "What a till's credential can do"): receipt drafts
 * it made, their posting with a hub manager's PIN the guard checks, and entries into the shop's open counts.
 */
import {
  TillCountEntryInput,
  TillReceiptDraftInput,
  TillReceiptPostInput,
  type TillCountEntryAnswer,
  type TillDraftAnswer,
  type TillOpenCount,
} from '../till-goods-protocol.ts';
import type { HubGoodsDoc } from '../goods-protocol.ts';
import { endpoint, tillEndpoint } from './define.ts';

export const TILL_GOODS_API = {
  /** Saves a receipt draft at the hub under (this till, its draft id): sent again, one draft; `id`: only its own. */
  tillReceiptDraft: tillEndpoint<TillDraftAnswer>()('POST /api/till/goods/receipts', TillReceiptDraftInput, {
    ownDraft: { field: 'id' },
  }),
  /** Posts a draft this till made, once, with a hub manager's PIN (checked by the guard). */
  tillReceiptPost: tillEndpoint<HubGoodsDoc>()('POST /api/till/goods/receipts/post', TillReceiptPostInput, {
    pin: { field: 'approverPin', scope: 'approval' },
    ownDraft: { field: 'id' },
  }),
  /** The shop's open counts (попис started at the hub). */
  tillCounts: endpoint<{ counts: TillOpenCount[] }>()({
    method: 'GET',
    path: '/api/till/goods/counts',
    caller: 'till',
  }),
  /** One counted quantity into an open count, once per (this till, its entry id). */
  tillCountEntry: tillEndpoint<TillCountEntryAnswer>()('POST /api/till/goods/counts/enter', TillCountEntryInput),
} as const;
