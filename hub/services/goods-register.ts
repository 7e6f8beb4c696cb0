/**
 * The hub's goods register (docs/goods.md "At the hub"): a shop's suppliers, which its goods receipts name, the
 * shop's own PIB and address, which its A4 documents print, and the VAT rate of each tax label its tills report
 * (the receipt's calculation of a retail price from a margin).
 */
import { pibProblem } from '../../shared/goods/pib.ts';
import { HubError } from '../../shared/hub/protocol.ts';
import type {
  HubShopIdentity,
  HubShopIdentityInput,
  HubSupplier,
  HubSupplierInput,
} from '../../shared/hub/goods-protocol.ts';
import type { Queryable } from '../db/db.ts';
import { shopTaxLabels } from '../till-trust.ts';
import type { HubDeps } from './shared.ts';

/** A Serbian bank account as the till's supplier form takes it (shared/contract/goods.ts). */
const BANK_ACCOUNT = /^(\d{3}-\d{1,13}-\d{2}|\d{18})$/;

/** Refuses a PIB whose form or check digit is wrong, at `field`. */
export function refusePib(pib: string, field: string): void {
  const problem = pibProblem(pib);
  if (problem) throw new HubError(400, problem, 'the PIB is not valid', field);
}

interface SupplierRow {
  id: number;
  name: string;
  pib: string;
  address: string;
  bank_account: string;
  contact: string;
}

const supplierOf = (r: SupplierRow): HubSupplier => ({
  id: r.id,
  name: r.name,
  pib: r.pib,
  address: r.address,
  bankAccount: r.bank_account,
  contact: r.contact,
});

/** A shop's supplier by id, or a 400 at `field` when the shop has none such. */
export async function supplierById(q: Queryable, shopId: number, id: number, field: string): Promise<HubSupplier> {
  const r = await q.query<SupplierRow>(
    'SELECT id, name, pib, address, bank_account, contact FROM hub_suppliers WHERE shop_id = $1 AND id = $2',
    [shopId, id],
  );
  if (!r[0]) throw new HubError(400, 'supplier_unknown', 'the shop has no such supplier', field);
  return supplierOf(r[0]);
}

/** Each current tax label of the shop with the rate its most recently seen till reports for it. */
export async function shopTaxRates(q: Queryable, shopId: number): Promise<{ label: string; rate: number }[]> {
  const current = new Set((await shopTaxLabels(q, shopId)).labels);
  const rows = await q.query<{ label: string; rate: number }>(
    `SELECT DISTINCT ON (r->>'label') r->>'label' AS label, (r->>'rate')::float8 AS rate
       FROM tills t, jsonb_array_elements(coalesce(t.status->'taxRates', '[]')) AS r
      WHERE t.shop_id = $1 AND t.revoked_at IS NULL
      ORDER BY r->>'label', t.last_seen DESC NULLS LAST`,
    [shopId],
  );
  return rows.filter((r) => current.has(r.label)).map((r) => ({ label: r.label, rate: Number(r.rate) }));
}

export function goodsRegisterService(deps: HubDeps) {
  const { db, iso } = deps;
  return {
    /** A shop's suppliers by name. */
    async suppliers(shopId: number): Promise<HubSupplier[]> {
      const rows = await db.query<SupplierRow>(
        'SELECT id, name, pib, address, bank_account, contact FROM hub_suppliers WHERE shop_id = $1 ORDER BY name, id',
        [shopId],
      );
      return rows.map(supplierOf);
    },

    /**
     * Saves a supplier (new, or `id` changed). Refused at its field, nothing saved: a PIB with a wrong check digit,
     * a bank account not written as a Serbian one, a PIB another supplier of the shop has.
     */
    async putSupplier(shopId: number, input: HubSupplierInput): Promise<HubSupplier> {
      refusePib(input.pib, 'pib');
      const account = input.bankAccount ?? '';
      if (account !== '' && !BANK_ACCOUNT.test(account))
        throw new HubError(400, 'bank_account', 'write the account as 160-0000000012345-67', 'bankAccount');
      return db.tx(async (q) => {
        const other = await q.query<{ id: number; name: string }>(
          'SELECT id, name FROM hub_suppliers WHERE shop_id = $1 AND pib = $2 AND id <> $3',
          [shopId, input.pib, input.id ?? 0],
        );
        if (other[0]) throw new HubError(409, 'supplier_pib_taken', `the PIB is ${other[0].name}'s already`, 'pib');
        const values = [
          shopId,
          input.name,
          input.pib,
          input.address ?? '',
          account,
          input.contact ?? '',
          iso(),
        ] as const;
        if (input.id !== undefined) {
          await supplierById(q, shopId, input.id, 'id');
          await q.query(
            `UPDATE hub_suppliers SET name = $2, pib = $3, address = $4, bank_account = $5, contact = $6, updated_at = $7
              WHERE shop_id = $1 AND id = $8`,
            [...values, input.id],
          );
          return supplierById(q, shopId, input.id, 'id');
        }
        const r = await q.query<{ id: number }>(
          `INSERT INTO hub_suppliers (shop_id, name, pib, address, bank_account, contact, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
          [...values],
        );
        return supplierById(q, shopId, r[0]?.id ?? 0, 'id');
      });
    },

    /** The shop's title block for its A4 documents: its name, PIB and address ('' while not set). */
    async shopIdentity(shopId: number): Promise<HubShopIdentity> {
      const r = await db.query<{ name: string; pib: string | null; address: string | null }>(
        `SELECT s.name, i.pib, i.address FROM shops s LEFT JOIN hub_shop_identity i ON i.shop_id = s.id
          WHERE s.id = $1`,
        [shopId],
      );
      return { name: r[0]?.name ?? '', pib: r[0]?.pib ?? '', address: r[0]?.address ?? '' };
    },

    /** Sets the shop's PIB (check digit verified, at `pib`) and address. */
    async setShopIdentity(shopId: number, input: HubShopIdentityInput): Promise<HubShopIdentity> {
      refusePib(input.pib, 'pib');
      await db.query(
        `INSERT INTO hub_shop_identity (shop_id, pib, address, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (shop_id) DO UPDATE SET pib = EXCLUDED.pib, address = EXCLUDED.address,
           updated_at = EXCLUDED.updated_at`,
        [shopId, input.pib, input.address, iso()],
      );
      return this.shopIdentity(shopId);
    },

    /** The shop's VAT rates by tax label (the receipt form's margin calculation). */
    goodsTaxRates(shopId: number): Promise<{ label: string; rate: number }[]> {
      return shopTaxRates(db, shopId);
    },
  };
}
