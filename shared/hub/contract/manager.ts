/**
 * The manager's endpoints: a hub manager's session (one shop) or the admin token (the whole chain), and what only
 * the admin token may do. Which shop a call acts on is decided by the guard from `shop` (hub/guard.ts).
 */
import type { HubAuditEntry } from '../../contract/hub.ts';
import {
  ClaimsClearInput,
  EnrolCodeInput,
  EnrolCodeRevokeInput,
  HubBulkPriceInput,
  ProductPageQuery,
  ProductsCsvQuery,
  ProductsInput,
  ReportInput,
  ShopInput,
  ShopQuery,
  ShopSettingsInput,
  StaffActiveInput,
  StaffAddInput,
  StaffListInput,
  StaffPinInput,
  TillRevokeInput,
  type HubStaffRow,
  type ShopSettings,
} from '../protocol.ts';
import {
  HubPriceDeleteInput,
  HubPriceListInput,
  HubPromotionInput,
  HubScheduleInput,
  type HubPrices,
} from '../prices.ts';
import { endpoint, chainEndpoint, shopEndpoint, type HubFile } from './define.ts';
import type { EnrolCodeRow, HubProductPage, HubReport, MaintenanceAlarm, TillLive } from './results.ts';

export const MANAGER_API = {
  logout: endpoint<{ ended: boolean }>()({ method: 'POST', path: '/api/admin/logout', caller: 'manager' }),
  /** Who is logged in: the manager's name and shop (null for the admin token). */
  me: endpoint<{ name: string; shopId: number | null }>()({ method: 'GET', path: '/api/admin/me', caller: 'manager' }),
  audit: chainEndpoint<{ entries: HubAuditEntry[] }>()('GET /api/admin/audit', ShopQuery),
  /** The tills' live status with their alarms, and the day closer's alarm. */
  tills: chainEndpoint<{ tills: TillLive[]; maintenance: MaintenanceAlarm | null }>()(
    'GET /api/admin/tills',
    ShopQuery,
  ),
  revokeTill: chainEndpoint<{ revoked: number }>()('POST /api/admin/tills/revoke', TillRevokeInput),
  clearClaims: chainEndpoint<{ cleared: number }>()('POST /api/admin/invoice-claims/clear', ClaimsClearInput),
  /** A new one-time enrolment code, with the certificate's fingerprint the till pins. */
  newEnrolCode: shopEndpoint<{ code: string; fingerprint: string | null }>()(
    'POST /api/admin/enrol-codes',
    EnrolCodeInput.partial(),
    { status: 201 },
  ),
  enrolCodes: chainEndpoint<{ codes: EnrolCodeRow[]; fingerprint: string | null }>()(
    'GET /api/admin/enrol-codes',
    ShopQuery,
  ),
  revokeEnrolCode: chainEndpoint<{ revoked: number }>()('POST /api/admin/enrol-codes/revoke', EnrolCodeRevokeInput),
  products: shopEndpoint<HubProductPage>()('GET /api/admin/products', ProductPageQuery),
  putProducts: shopEndpoint<{ changed: number }>()('PUT /api/admin/products', ProductsInput),
  productGroups: shopEndpoint<{ groups: { name: string; products: number }[]; labels: string[] }>()(
    'GET /api/admin/products/groups',
    ShopQuery,
  ),
  productsCsv: shopEndpoint<HubFile>()('GET /api/admin/products/csv', ProductsCsvQuery),
  bulkPrice: shopEndpoint<{ group: string; percentBp: number; count: number; dryRun: boolean }>()(
    'POST /api/admin/products/bulk-price',
    HubBulkPriceInput,
  ),
  settings: shopEndpoint<{ settings: ShopSettings }>()('GET /api/admin/settings', ShopQuery),
  putSettings: shopEndpoint<{ changed: number }>()('PUT /api/admin/settings', ShopSettingsInput),
  staff: shopEndpoint<{ staff: HubStaffRow[] }>()('GET /api/admin/staff', ShopQuery),
  /** The shop's people in bulk, with their PIN hashes (the admin token's tool; a manager acts as themself). */
  putStaff: shopEndpoint<{ changed: number }>()('PUT /api/admin/staff', StaffListInput),
  staffActive: shopEndpoint<{ changed: boolean }>()('POST /api/admin/staff/active', StaffActiveInput),
  staffAdd: shopEndpoint<{ name: string }>()('POST /api/admin/staff/add', StaffAddInput),
  staffPin: shopEndpoint<{ changed: true }>()('POST /api/admin/staff/pin', StaffPinInput),
  /** The report as JSON, or with `format` a CSV file (`csv`: the report, `receipts`: the receipts list). */
  report: chainEndpoint<HubReport | HubFile>()('GET /api/admin/report', ReportInput),
  /** A new shop of the chain: the admin token only. */
  createShop: endpoint<{ shopId: number }>()({
    method: 'POST',
    path: '/api/admin/shops',
    caller: 'admin',
    input: ShopInput,
    status: 201,
  }),
  /** The shop's price lists, promotions and scheduled price changes, its own and its chain's (issue 42). */
  prices: shopEndpoint<HubPrices>()('GET /api/admin/prices', ShopQuery),
  /** A price list for the shop or the chain, new or by `id`, checked by the till's rules (audited). */
  pricesListPut: shopEndpoint<{ id: number; name: string }>()('PUT /api/admin/prices/lists', HubPriceListInput),
  /** A promotion for the shop or the chain, new or by `id`, checked by the till's rules (audited). */
  pricesPromotionPut: shopEndpoint<{ id: number; name: string }>()(
    'PUT /api/admin/prices/promotions',
    HubPromotionInput,
  ),
  /** A product's new price from a moment on, at every till of the shop (audited). */
  pricesSchedule: shopEndpoint<{ id: number; name: string }>()('POST /api/admin/prices/scheduled', HubScheduleInput, {
    status: 201,
  }),
  /** A list or promotion deleted, or a pending scheduled change cancelled (audited). */
  pricesDelete: shopEndpoint<{ deleted: number }>()('POST /api/admin/prices/delete', HubPriceDeleteInput),
} as const;
