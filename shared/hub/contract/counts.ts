/**
 * The stock-taking endpoints (попис at the hub, docs/goods.md "Stock-taking at the hub"): a hub manager's session
 * acts on its own shop, the admin token on the shop it names.
 */
import { HubStockQuery } from '../goods-protocol.ts';
import {
  HubCountActInput,
  HubCountEnterInput,
  HubCountImportInput,
  HubCountQuery,
  HubCountStartInput,
  type HubCountList,
  type HubCountView,
} from '../count-protocol.ts';
import { endpoint, type HubFile } from './define.ts';

export const COUNT_API = {
  /** The shop's counts, newest first, and its product groups. */
  goodsCounts: endpoint<HubCountList>()({
    method: 'GET',
    path: '/api/admin/goods/counts',
    caller: 'manager',
    input: HubStockQuery,
    shop: 'required',
  }),
  /** One count with its lines, differences and totals. */
  goodsCount: endpoint<HubCountView>()({
    method: 'GET',
    path: '/api/admin/goods/counts/view',
    caller: 'manager',
    input: HubCountQuery,
    shop: 'required',
  }),
  /** Starts a count: the book frozen now for the whole shop or the groups named (no two open counts overlap). */
  goodsCountStart: endpoint<HubCountView>()({
    method: 'POST',
    path: '/api/admin/goods/counts',
    caller: 'manager',
    input: HubCountStartInput,
    shop: 'required',
    status: 201,
  }),
  goodsCountEnter: endpoint<HubCountView>()({
    method: 'POST',
    path: '/api/admin/goods/counts/enter',
    caller: 'manager',
    input: HubCountEnterInput,
    shop: 'required',
  }),
  goodsCountImport: endpoint<HubCountView>()({
    method: 'POST',
    path: '/api/admin/goods/counts/import',
    caller: 'manager',
    input: HubCountImportInput,
    shop: 'required',
  }),
  /** Posts the differences once: asked again (a retry, a second click) it answers the posted count. */
  goodsCountPost: endpoint<HubCountView>()({
    method: 'POST',
    path: '/api/admin/goods/counts/post',
    caller: 'manager',
    input: HubCountActInput,
    shop: 'required',
  }),
  goodsCountCancel: endpoint<HubCountView>()({
    method: 'POST',
    path: '/api/admin/goods/counts/cancel',
    caller: 'manager',
    input: HubCountActInput,
    shop: 'required',
  }),
  /** The count's list (пописна листа) as an A4 PDF with the shop's PIB and address. */
  goodsCountPdf: endpoint<HubFile>()({
    method: 'GET',
    path: '/api/admin/goods/counts/pdf',
    caller: 'manager',
    input: HubCountQuery,
    shop: 'required',
  }),
} as const;
