/**
 * The handlers of the manager's endpoints (shared/hub/contract/manager.ts): the guard has identified the manager
 * (or the admin token) and settled the shop the call acts on (`shop`); the service decides the rest.
 */
import { HubError } from '../../shared/hub/protocol.ts';
import type { MANAGER_API } from '../../shared/hub/contract.ts';
import { receiptsCsv } from '../../shared/reports/receipts.ts';
import { dayIn, periodName } from '../../shared/i18n/time.ts';
import { endSession } from '../sessions.ts';
import { listAudit } from '../audit.ts';
import { hubReportCsv } from '../reports.ts';
import { receiptsPeriod } from '../report-receipts.ts';
import { DEFAULT_HUB_TIME_ZONE } from '../report-days.ts';
import type { HubHandlers } from '../router.ts';
import { codesOf, type RouteDeps } from './deps.ts';
import { pricesHandlers } from './prices.ts';

const CSV = 'text/csv; charset=utf-8';

export function managerHandlers({ service, guard, fingerprint }: RouteDeps): HubHandlers<typeof MANAGER_API> {
  const audit = guard.audit;
  return {
    logout: async ({ who }) => {
      const ended = who.session !== undefined && (await endSession(service.db, who.session));
      if (ended) await audit(who, 'logout', {});
      return { ended };
    },
    me: async ({ who }) => ({ name: who.name, shopId: who.shopId }),
    audit: async ({ shop }) => ({ entries: await listAudit(service.db, shop) }),
    tills: async ({ shop }) => ({
      tills: await service.tillStatus(shop ?? undefined),
      // The day closer failing (issue 39): an alarm for every manager until a round works again.
      maintenance: await service.maintenance(),
    }),
    revokeTill: async ({ who, input, shop }) => {
      const till = await service.revokeTill(input.tillId, shop);
      if (!till) throw new HubError(404, 'till_unknown', `no till ${input.tillId} in this shop`, 'tillId');
      await audit(who, 'till_revoke', { till: input.tillId, name: till.name }, till.shopId);
      return { revoked: input.tillId };
    },
    clearClaims: async ({ who, input, shop }) => {
      const cleared = await service.clearClaims(input.tillId, shop);
      if (cleared > 0) await audit(who, 'claims_clear', { till: input.tillId, count: cleared });
      return { cleared };
    },
    newEnrolCode: async ({ who, shop }) => {
      const code = await service.newEnrolCode(shop);
      // The code itself is a secret until spent: not in the audit.
      await audit(who, 'enrol_code', {}, shop);
      // The till pins the hub's certificate at enrolment: the code goes with its fingerprint.
      return { code, fingerprint };
    },
    enrolCodes: async ({ shop }) => ({ codes: await service.enrolCodes(shop), fingerprint }),
    revokeEnrolCode: async ({ who, input, shop }) => {
      const r = await service.revokeEnrolCode(input.id, shop);
      if (!r) throw new HubError(404, 'enrol_code_not_found', `no enrolment code ${input.id} in this shop`, 'id');
      if (r.state === 'used')
        throw new HubError(409, 'enrol_code_used', 'this code was spent: revoke its till instead', 'id');
      await audit(who, 'enrol_code_revoke', { id: input.id }, r.shopId);
      return { revoked: input.id };
    },
    products: ({ input, shop }) =>
      service.productPage(shop, {
        ...(input.q !== undefined ? { query: input.q } : {}),
        ...(input.after !== undefined ? { after: input.after } : {}),
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
      }),
    putProducts: async ({ who, input, shop }) => {
      const changed = await service.upsertProducts(shop, input.products);
      await audit(who, 'products', { count: changed, codes: codesOf(input.products.map((p) => p.code)) }, shop);
      return { changed };
    },
    productGroups: async ({ shop }) => ({
      groups: await service.productGroups(shop),
      labels: await service.taxLabels(shop),
    }),
    productsCsv: async ({ input, shop }) => {
      const { csv } = await service.productsCsv(shop, input.lang ?? 'sr-Cyrl');
      return { kind: 'file', filename: 'kasa-catalog.csv', type: CSV, text: csv };
    },
    bulkPrice: async ({ who, input, shop }) => {
      const dryRun = input.dryRun === true;
      const count = await service.bulkPrice(shop, input.group, input.percentBp, dryRun);
      if (!dryRun)
        await audit(who, 'products_bulk_price', { group: input.group, percentBp: input.percentBp, count }, shop);
      return { group: input.group, percentBp: input.percentBp, count, dryRun };
    },
    settings: async ({ shop }) => ({ settings: await service.shopSettings(shop) }),
    putSettings: async ({ who, input, shop }) => {
      const changed = await service.setShopSettings(shop, input.settings);
      await audit(who, 'settings', { count: Object.keys(input.settings).length }, shop);
      return { changed };
    },
    staff: async ({ shop }) => ({ staff: await service.listStaff(shop) }),
    putStaff: async ({ who, input, shop }) => {
      // A manager's session acts as that manager; the admin token is nobody.
      const changed = await service.upsertStaff(shop, input.staff, who.self);
      // Names and roles only: never the PIN hashes.
      await audit(who, 'staff', { count: changed, names: codesOf(input.staff.map((s) => s.name)) }, shop);
      return { changed };
    },
    staffActive: async ({ who, input, shop }) => {
      // A manager may not deactivate themself (the service's rule, told who asks).
      const changed = await service.setStaffActive(shop, input.name, input.active, who.self);
      if (changed) await audit(who, input.active ? 'staff_reactivate' : 'staff_deactivate', { name: input.name }, shop);
      return { changed };
    },
    staffAdd: async ({ who, input, shop }) => {
      const name = await service.addStaff(shop, { name: input.name, role: input.role, pin: input.pin });
      // The name and role only: never the PIN or its hash.
      await audit(who, 'staff_create', { name, role: input.role }, shop);
      return { name };
    },
    staffPin: async ({ who, input, shop }) => {
      await service.setStaffPin(shop, input.name, input.pin);
      // The name only: never the PIN or its hash.
      await audit(who, 'staff_pin', { name: input.name }, shop);
      return { changed: true };
    },
    report: async ({ input, shop }) => {
      const scoped = { ...input, ...(shop !== null ? { shopId: shop } : {}) };
      const zone = input.timeZone ?? DEFAULT_HUB_TIME_ZONE;
      if (input.format === 'receipts') {
        const now = Date.now();
        const rows = await service.receipts(scoped, now);
        // Named by its own days, as the till's CSVs (issue 38): `kasa-hub-receipts-2026-11-27.csv`.
        const period = receiptsPeriod(input, now);
        const text = receiptsCsv(rows, input.lang ?? 'en', input.timeZone);
        return {
          kind: 'file',
          filename: `kasa-hub-receipts-${periodName(period.from, period.to, zone)}.csv`,
          type: CSV,
          text,
        };
      }
      const report = await service.report(scoped);
      if (input.format !== 'csv') return report;
      const day = dayIn(new Date(report.total.from), zone);
      return {
        kind: 'file',
        filename: `kasa-hub-report-${day}.csv`,
        type: CSV,
        text: hubReportCsv(report, input.timeZone, input.lang),
      };
    },
    createShop: async ({ who, input }) => {
      const shopId = await service.createShop(input.name);
      await audit(who, 'shop_create', { shop: shopId, name: input.name }, shopId);
      return { shopId };
    },
    ...pricesHandlers({ service, guard }),
  };
}
