/**
 * The hub's rules: enrolment, till credentials, ingest of the tills' history (exactly once, gaps found),
 * master data with a change cursor, lookups across the shop's tills, status and the shop's day.
 * The hub never fiscalizes: it stores what the tills report.
 *
 * Composed of one module per area in hub/services/ (docs/hub.md "Where the hub's code lives"), each a factory of
 * the shared deps (hub/services/shared.ts) returning its methods, like the till's handlers (electron/core.ts).
 */
import type { HubDb } from './db/db.ts';
import { HubError } from '../shared/hub/protocol.ts';
import { composeAreas, hubDeps, type HubServiceOptions } from './services/shared.ts';
import { tillsService } from './services/tills.ts';
import { tillStatusService } from './services/till-status.ts';
import { pushService } from './services/push.ts';
import { ordersService } from './services/orders.ts';
import { catalogService } from './services/catalog.ts';
import { staffService } from './services/staff.ts';
import { adminService } from './services/admin.ts';
import { reportsService } from './services/reports.ts';
import { goodsService } from './services/goods.ts';
import { goodsRegisterService } from './services/goods-register.ts';
import { goodsReceiptDraftsService } from './services/goods-receipt-drafts.ts';
import { goodsMinimumsService } from './services/goods-minimums.ts';
import { pricesService } from './services/prices.ts';
import { goodsCountsService } from './services/goods-counts.ts';
import { goodsReceiptExtrasService } from './services/goods-receipt-extras.ts';
import { goodsOpeningService } from './services/goods-opening.ts';
import { tillGoodsService } from './services/till-goods.ts';
import { exportsService } from './services/exports.ts';
import { sefService } from './services/sef.ts';

export { HubError };
export { eventDigest } from './services/push.ts';
export { DEFAULT_ENROL_CODE_TTL_MS, type AuthedTill, type HubServiceOptions } from './services/shared.ts';

export function createHubService(db: HubDb, options: HubServiceOptions = {}) {
  const deps = hubDeps(db, options);
  const admin = adminService(deps);
  return {
    db,
    ...composeAreas({
      tills: tillsService(deps),
      tillStatus: tillStatusService(deps),
      push: pushService(deps),
      orders: ordersService(deps),
      catalog: catalogService(deps),
      staff: staffService(deps),
      admin,
      reports: reportsService(deps),
      goods: goodsService(deps),
      prices: pricesService(deps),
      goodsRegister: goodsRegisterService(deps),
      goodsReceiptDrafts: goodsReceiptDraftsService(deps),
      goodsMinimums: goodsMinimumsService(deps),
      goodsCounts: goodsCountsService(deps),
      goodsReceiptExtras: goodsReceiptExtrasService(deps),
      goodsOpening: goodsOpeningService(deps),
      tillGoods: tillGoodsService(deps),
      exports: exportsService(deps),
      sef: sefService({ ...deps, setSefFromHub: (shop, on) => admin.setShopSettings(shop, { sefFromHub: on }) }),
    }),
  };
}

export type HubService = ReturnType<typeof createHubService>;
