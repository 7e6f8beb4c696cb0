/**
 * The accounts of the bookkeeper's posting journal (docs/exports.md): one account per role a posting plays, mapped
 * once by the shop (Менаџер → Књиговођа) and stored as a setting. The defaults are analytic accounts under the
 * synthetic accounts of the Serbian chart for companies (Pravilnik o Kontnom okviru i sadržini računa u Kontnom okviru
 * za privredna društva, zadruge i preduzetnike, „Службени гласник РС“ 89/2020): 243 cash, 241 current account,
 * 204 buyers, 134 goods in retail, 430 advances received, 435 suppliers, 470–473 VAT, 604 revenue from goods,
 * 501 the purchase value of goods sold, 577 goods written off, 574 shortages, 674 surpluses. The
 * bookkeeper changes any of them to the shop's own chart. Pure: no database.
 */
import type { PaymentType } from '../domain.ts';

export const ACCOUNT_KEYS = [
  'cash',
  'cards',
  'transfer',
  'otherPayment',
  'revenueGeneral',
  'revenueSpecial',
  'revenueExempt',
  'vatGeneral',
  'vatSpecial',
  'advances',
  'advanceVatGeneral',
  'advanceVatSpecial',
  'goodsRetail',
  'goodsVat',
  'goodsMargin',
  'suppliers',
  'costOfGoods',
  'writeOffs',
  'shortages',
  'surpluses',
] as const;
export type AccountKey = (typeof ACCOUNT_KEYS)[number];
export type AccountMap = Record<AccountKey, string>;

/** A sensible start for a retail shop (the synthetic account in the comment). */
export const DEFAULT_ACCOUNTS: AccountMap = {
  cash: '2430', // 243 Благајна
  cards: '2410', // 241 Текући (пословни) рачуни: card takings settle into the current account
  transfer: '2040', // 204 Купци у земљи
  otherPayment: '2410', // 241: instant transfer, vouchers, mobile money
  revenueGeneral: '6040', // 604 Приходи од продаје робе на домаћем тржишту (20 %)
  revenueSpecial: '6041', // 604 (10 %)
  revenueExempt: '6042', // 604 (без ПДВ)
  vatGeneral: '4700', // 470 Обавезе за ПДВ по издатим фактурама по општој стопи
  vatSpecial: '4710', // 471 … по посебној стопи
  advances: '4300', // 430 Примљени аванси, депозити и кауције
  advanceVatGeneral: '4720', // 472 Обавезе за ПДВ по примљеним авансима по општој стопи
  advanceVatSpecial: '4730', // 473 … по посебној стопи
  goodsRetail: '1340', // 134 Роба у промету на мало
  goodsVat: '1347', // 134 analytic: укалкулисани ПДВ
  goodsMargin: '1349', // 134 analytic: укалкулисана разлика у цени
  suppliers: '4350', // 435 Добављачи у земљи
  costOfGoods: '5010', // 501 Набавна вредност продате робе
  writeOffs: '5770', // 577 Расходи по основу расходовања залиха материјала и робе
  shortages: '5740', // 574 Мањкови
  surpluses: '6740', // 674 Вишкови
};

/** An account number as the shop may type it: digits, 3 to 10. */
export const ACCOUNT_PATTERN = /^\d{3,10}$/;

/** The account a payment type is received on. */
export function paymentAccountKey(type: PaymentType): AccountKey {
  if (type === 'cash') return 'cash';
  if (type === 'card') return 'cards';
  if (type === 'wireTransfer' || type === 'virman' || type === 'account' || type === 'factoring') return 'transfer';
  return 'otherPayment';
}

/** The VAT rate's class: the general rate (20 %), the special (10 %), or none. */
export function rateClass(rate: number): 'General' | 'Special' | 'Exempt' {
  if (rate >= 20) return 'General';
  if (rate > 0) return 'Special';
  return 'Exempt';
}

/** The stored map merged over the defaults (a key never set, or not a valid account, keeps its default). */
export function accountsFrom(stored: Partial<Record<string, unknown>>): AccountMap {
  const out = { ...DEFAULT_ACCOUNTS };
  for (const k of ACCOUNT_KEYS) {
    const v = stored[k];
    if (typeof v === 'string' && ACCOUNT_PATTERN.test(v)) out[k] = v;
  }
  return out;
}

/** The accounts `next` maps differently from `before`, as „key account“ (the audit's detail of a change). */
export function accountsChanged(before: AccountMap, next: AccountMap): string[] {
  return ACCOUNT_KEYS.filter((k) => before[k] !== next[k]).map((k) => `${k} ${next[k]}`);
}
