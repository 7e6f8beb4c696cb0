/**
 * The sandbox's fixed accounts, shops and tax groups. Keys, shops and label sets follow the spec
 * (../shared/spec/fiscal-receipt-gateway-api.md, "Environments" and "Tax labels").
 */
import { includedTax, type Para } from '../../shared/money.ts';

/** One tax rate of a category. */
export interface TaxRate {
  rate: number;
  label: string;
}

/** A tax category as served by GET /receipt/tax-rates. */
export interface TaxCategory {
  name: string;
  categoryType: number;
  orderId: number;
  taxRates: TaxRate[];
}

/** A tax group (current or historical). */
export interface TaxGroup {
  validFrom: string;
  groupId: number;
  taxCategories: TaxCategory[];
}

/** A shop: what an API key is bound to. */
export interface Shop {
  id: number;
  companyId: number;
  companyName: string;
  businessName: string;
  locationName: string;
  address: string;
  city: string;
  /** PIB, 9 digits. */
  tin: string;
  environment: 'demo' | 'production';
  /** First segment of invoice numbers (the requesting ESIR's UID). */
  requestedBy: string;
  /** Second segment (the secure element's UID). */
  signedBy: string;
  current: TaxGroup;
  history: TaxGroup[];
  /** Labels the secure element accepts; any other label is rejected by the Tax Administration (2310). */
  enabledLabels: ReadonlySet<string>;
  /** Labels allowed on advance receipts (demo only: A, E, F); null = no restriction. */
  advanceLabels: ReadonlySet<string> | null;
}

/** An API key of the sandbox. */
export interface Account {
  apiKey: string;
  keyId: number;
  keyName: string;
  version: 'V1' | 'V2';
  shop: Shop;
  /** false: the key is valid but has no access to receipts, archive and cashiers (403). */
  access: boolean;
}

/**
 * A category as the sandbox's groups have them (every one of type 0): `rates` maps each label to its rate, in the
 * order served (labels are letters, so the object keeps the order they are written in).
 */
function category(orderId: number, name: string, rates: Record<string, number>): TaxCategory {
  return {
    name,
    categoryType: 0,
    orderId,
    taxRates: Object.entries(rates).map(([label, rate]) => ({ rate, label })),
  };
}

/** The demo shop's current group. Tests derive their announced "rate change" from it. */
export const DEMO_TAX_GROUP: TaxGroup = {
  validFrom: '2024-01-01T00:00:00.000Z',
  groupId: 6,
  taxCategories: [
    category(1, 'VAT', { Ж: 19, A: 10, F: 11, E: 6 }),
    category(2, 'VAT-EXCL', { B: 0, N: 0, C: 0 }),
    category(3, 'STT', { P: 0.5, T: 2 }),
  ],
};

const DEMO_OLD: TaxGroup = {
  validFrom: '2022-01-01T00:00:00.000Z',
  groupId: 4,
  taxCategories: [category(1, 'VAT', { Ж: 18, A: 9, E: 6 }), category(2, 'VAT-EXCL', { N: 0 })],
};

const PROD_CURRENT: TaxGroup = {
  validFrom: '2023-04-01T00:00:00.000Z',
  groupId: 8,
  taxCategories: [
    category(1, 'О-ПДВ', { Ђ: 20 }),
    category(2, 'П-ПДВ', { Е: 10 }),
    category(3, 'Без ПДВ', { Г: 0 }),
    category(4, 'Није у ПДВ', { А: 0 }),
  ],
};

const PROD_OLD: TaxGroup = {
  validFrom: '2022-02-01T00:00:00.000Z',
  groupId: 7,
  taxCategories: [category(1, 'О-ПДВ', { Ђ: 20 }), category(2, 'П-ПДВ', { Е: 10 }), category(3, 'Без ПДВ', { Г: 0 })],
};

const DEMO_SHOP: Shop = {
  id: 101,
  companyId: 11,
  companyName: 'Демо д.о.о.',
  businessName: 'Демо продавница',
  locationName: 'Демо локал 1',
  address: 'Булевар ослобођења 1',
  city: 'Нови Сад',
  tin: '100000017',
  environment: 'demo',
  requestedBy: 'KS7DEM01',
  signedBy: 'T3STSE01',
  current: DEMO_TAX_GROUP,
  history: [DEMO_OLD],
  enabledLabels: new Set(['A', 'E', 'F']),
  advanceLabels: new Set(['A', 'E', 'F']),
};

const PROD_SHOP: Shop = {
  id: 201,
  companyId: 21,
  companyName: 'Пекара Клас д.о.о.',
  businessName: 'Пекара Клас',
  locationName: 'Пекара Клас Центар',
  address: 'Кнеза Михаила 12',
  city: 'Београд',
  tin: '104987652',
  environment: 'production',
  requestedBy: 'KS7PRD01',
  signedBy: 'PR0DSE42',
  current: PROD_CURRENT,
  history: [PROD_OLD],
  enabledLabels: new Set(['Ђ', 'Е', 'Г', 'А']),
  advanceLabels: null,
};

const NOACCESS_SHOP: Shop = {
  ...DEMO_SHOP,
  id: 301,
  companyId: 31,
  companyName: 'Без приступа д.о.о.',
  businessName: 'Без приступа',
  locationName: 'Без приступа',
  tin: '100000025',
  requestedBy: 'KS7NOA01',
  signedBy: 'N0ACSE01',
};

/** Every shop, by id. */
export const SHOPS: ReadonlyMap<number, Shop> = new Map([DEMO_SHOP, PROD_SHOP, NOACCESS_SHOP].map((s) => [s.id, s]));

/** Every key the sandbox accepts. */
export const ACCOUNTS: ReadonlyMap<string, Account> = new Map(
  (
    [
      { apiKey: 'demo-key', keyId: 1001, keyName: 'Демо кључ', version: 'V2', shop: DEMO_SHOP, access: true },
      { apiKey: 'demo-key-v1', keyId: 1002, keyName: 'Демо кључ (V1)', version: 'V1', shop: DEMO_SHOP, access: true },
      { apiKey: 'prod-key', keyId: 2001, keyName: 'Каса 1', version: 'V2', shop: PROD_SHOP, access: true },
      {
        apiKey: 'noaccess-key',
        keyId: 3001,
        keyName: 'Без приступа',
        version: 'V2',
        shop: NOACCESS_SHOP,
        access: false,
      },
    ] satisfies Account[]
  ).map((a) => [a.apiKey, a]),
);

/** Finds the rate and category of a label in a group. */
export function findLabel(group: TaxGroup, label: string): { rate: number; category: TaxCategory } | undefined {
  for (const category of group.taxCategories) {
    const hit = category.taxRates.find((r) => r.label === label);
    if (hit) return { rate: hit.rate, category };
  }
  return undefined;
}

/** One label's tax on a receipt: its rate and category, and the VAT included in its items' gross. */
export interface LabelTax {
  label: string;
  rate: number;
  categoryType: number;
  categoryName: string;
  /** The category's place in the group (its `orderId`). */
  orderId: number;
  amount: Para;
}

/**
 * A receipt's tax items: VAT included in the gross, the items' totals summed per label (an item under two labels
 * counts under each), in the categories' order; a label the group does not know has none.
 */
export function taxesPerLabel(
  group: TaxGroup,
  items: readonly { labels: readonly string[]; total: Para }[],
): LabelTax[] {
  const perLabel = new Map<string, Para>();
  for (const item of items) {
    for (const label of new Set(item.labels)) perLabel.set(label, (perLabel.get(label) ?? 0) + item.total);
  }
  const out: LabelTax[] = [];
  for (const [label, base] of perLabel) {
    const hit = findLabel(group, label);
    if (!hit) continue;
    out.push({
      label,
      rate: hit.rate,
      categoryType: hit.category.categoryType,
      categoryName: hit.category.name,
      orderId: hit.category.orderId,
      amount: includedTax(base, hit.rate),
    });
  }
  return out.sort((a, b) => a.orderId - b.orderId || a.label.localeCompare(b.label));
}
