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
import { endpoint, type HubFile } from './define.ts';
import type { EnrolCodeRow, HubProductPage, HubReport, MaintenanceAlarm, TillLive } from './results.ts';

export const MANAGER_API = {
  logout: endpoint<{ ended: boolean }>()({ method: 'POST', path: '/api/admin/logout', caller: 'manager' }),
  /** Who is logged in: the manager's name and shop (null for the admin token). */
  me: endpoint<{ name: string; shopId: number | null }>()({ method: 'GET', path: '/api/admin/me', caller: 'manager' }),
  audit: endpoint<{ entries: HubAuditEntry[] }>()({
    method: 'GET',
    path: '/api/admin/audit',
    caller: 'manager',
    input: ShopQuery,
    shop: 'optional',
  }),
  /** The tills' live status with their alarms, and the day closer's alarm. */
  tills: endpoint<{ tills: TillLive[]; maintenance: MaintenanceAlarm | null }>()({
    method: 'GET',
    path: '/api/admin/tills',
    caller: 'manager',
    input: ShopQuery,
    shop: 'optional',
  }),
  revokeTill: endpoint<{ revoked: number }>()({
    method: 'POST',
    path: '/api/admin/tills/revoke',
    caller: 'manager',
    input: TillRevokeInput,
    shop: 'optional',
  }),
  clearClaims: endpoint<{ cleared: number }>()({
    method: 'POST',
    path: '/api/admin/invoice-claims/clear',
    caller: 'manager',
    input: ClaimsClearInput,
    shop: 'optional',
  }),
  /** A new one-time enrolment code, with the certificate's fingerprint the till pins. */
  newEnrolCode: endpoint<{ code: string; fingerprint: string | null }>()({
    method: 'POST',
    path: '/api/admin/enrol-codes',
    caller: 'manager',
    input: EnrolCodeInput.partial(),
    shop: 'required',
    status: 201,
  }),
  enrolCodes: endpoint<{ codes: EnrolCodeRow[]; fingerprint: string | null }>()({
    method: 'GET',
    path: '/api/admin/enrol-codes',
    caller: 'manager',
    input: ShopQuery,
    shop: 'optional',
  }),
  revokeEnrolCode: endpoint<{ revoked: number }>()({
    method: 'POST',
    path: '/api/admin/enrol-codes/revoke',
    caller: 'manager',
    input: EnrolCodeRevokeInput,
    shop: 'optional',
  }),
  products: endpoint<HubProductPage>()({
    method: 'GET',
    path: '/api/admin/products',
    caller: 'manager',
    input: ProductPageQuery,
    shop: 'required',
  }),
  putProducts: endpoint<{ changed: number }>()({
    method: 'PUT',
    path: '/api/admin/products',
    caller: 'manager',
    input: ProductsInput,
    shop: 'required',
  }),
  productGroups: endpoint<{ groups: { name: string; products: number }[]; labels: string[] }>()({
    method: 'GET',
    path: '/api/admin/products/groups',
    caller: 'manager',
    input: ShopQuery,
    shop: 'required',
  }),
  productsCsv: endpoint<HubFile>()({
    method: 'GET',
    path: '/api/admin/products/csv',
    caller: 'manager',
    input: ProductsCsvQuery,
    shop: 'required',
  }),
  bulkPrice: endpoint<{ group: string; percentBp: number; count: number; dryRun: boolean }>()({
    method: 'POST',
    path: '/api/admin/products/bulk-price',
    caller: 'manager',
    input: HubBulkPriceInput,
    shop: 'required',
  }),
  settings: endpoint<{ settings: ShopSettings }>()({
    method: 'GET',
    path: '/api/admin/settings',
    caller: 'manager',
    input: ShopQuery,
    shop: 'required',
  }),
  putSettings: endpoint<{ changed: number }>()({
    method: 'PUT',
    path: '/api/admin/settings',
    caller: 'manager',
    input: ShopSettingsInput,
    shop: 'required',
  }),
  staff: endpoint<{ staff: HubStaffRow[] }>()({
    method: 'GET',
    path: '/api/admin/staff',
    caller: 'manager',
    input: ShopQuery,
    shop: 'required',
  }),
  /** The shop's people in bulk, with their PIN hashes (the admin token's tool; a manager acts as themself). */
  putStaff: endpoint<{ changed: number }>()({
    method: 'PUT',
    path: '/api/admin/staff',
    caller: 'manager',
    input: StaffListInput,
    shop: 'required',
  }),
  staffActive: endpoint<{ changed: boolean }>()({
    method: 'POST',
    path: '/api/admin/staff/active',
    caller: 'manager',
    input: StaffActiveInput,
    shop: 'required',
  }),
  staffAdd: endpoint<{ name: string }>()({
    method: 'POST',
    path: '/api/admin/staff/add',
    caller: 'manager',
    input: StaffAddInput,
    shop: 'required',
  }),
  staffPin: endpoint<{ changed: true }>()({
    method: 'POST',
    path: '/api/admin/staff/pin',
    caller: 'manager',
    input: StaffPinInput,
    shop: 'required',
  }),
  /** The report as JSON, or with `format` a CSV file (`csv`: the report, `receipts`: the receipts list). */
  report: endpoint<HubReport | HubFile>()({
    method: 'GET',
    path: '/api/admin/report',
    caller: 'manager',
    input: ReportInput,
    shop: 'optional',
  }),
  /** A new shop of the chain: the admin token only. */
  createShop: endpoint<{ shopId: number }>()({
    method: 'POST',
    path: '/api/admin/shops',
    caller: 'admin',
    input: ShopInput,
    status: 201,
  }),
  /** The shop's price lists, promotions and scheduled price changes, its own and its chain's (issue 42). */
  prices: endpoint<HubPrices>()({
    method: 'GET',
    path: '/api/admin/prices',
    caller: 'manager',
    input: ShopQuery,
    shop: 'required',
  }),
  /** A price list for the shop or the chain, new or by `id`, checked by the till's rules (audited). */
  pricesListPut: endpoint<{ id: number; name: string }>()({
    method: 'PUT',
    path: '/api/admin/prices/lists',
    caller: 'manager',
    input: HubPriceListInput,
    shop: 'required',
  }),
  /** A promotion for the shop or the chain, new or by `id`, checked by the till's rules (audited). */
  pricesPromotionPut: endpoint<{ id: number; name: string }>()({
    method: 'PUT',
    path: '/api/admin/prices/promotions',
    caller: 'manager',
    input: HubPromotionInput,
    shop: 'required',
  }),
  /** A product's new price from a moment on, at every till of the shop (audited). */
  pricesSchedule: endpoint<{ id: number; name: string }>()({
    method: 'POST',
    path: '/api/admin/prices/scheduled',
    caller: 'manager',
    input: HubScheduleInput,
    shop: 'required',
    status: 201,
  }),
  /** A list or promotion deleted, or a pending scheduled change cancelled (audited). */
  pricesDelete: endpoint<{ deleted: number }>()({
    method: 'POST',
    path: '/api/admin/prices/delete',
    caller: 'manager',
    input: HubPriceDeleteInput,
    shop: 'required',
  }),
} as const;
