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
import { shopEndpoint, type HubFile } from './define.ts';

export const COUNT_API = {
  /** The shop's counts, newest first, and its product groups. */
  goodsCounts: shopEndpoint<HubCountList>()('GET /api/admin/goods/counts', HubStockQuery),
  /** One count with its lines, differences and totals. */
  goodsCount: shopEndpoint<HubCountView>()('GET /api/admin/goods/counts/view', HubCountQuery),
  /** Starts a count: the book frozen now for the whole shop or the groups named (no two open counts overlap). */
  goodsCountStart: shopEndpoint<HubCountView>()('POST /api/admin/goods/counts', HubCountStartInput, { status: 201 }),
  goodsCountEnter: shopEndpoint<HubCountView>()('POST /api/admin/goods/counts/enter', HubCountEnterInput),
  goodsCountImport: shopEndpoint<HubCountView>()('POST /api/admin/goods/counts/import', HubCountImportInput),
  /** Posts the differences once: asked again (a retry, a second click) it answers the posted count. */
  goodsCountPost: shopEndpoint<HubCountView>()('POST /api/admin/goods/counts/post', HubCountActInput),
  goodsCountCancel: shopEndpoint<HubCountView>()('POST /api/admin/goods/counts/cancel', HubCountActInput),
  /** The count's list (пописна листа) as an A4 PDF with the shop's PIB and address. */
  goodsCountPdf: shopEndpoint<HubFile>()('GET /api/admin/goods/counts/pdf', HubCountQuery),
} as const;
