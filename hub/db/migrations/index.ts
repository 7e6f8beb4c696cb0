import { h001 } from './001_init.ts';
import { h002 } from './002_shop_settings.ts';
import { h003 } from './003_parked_carts.ts';
import { h004 } from './004_shifts.ts';
import { h005 } from './005_invoice_claims.ts';
import { h006 } from './006_login_attempts.ts';
import { h007 } from './007_sessions.ts';
import { h008 } from './008_till_revocation.ts';
import { h009 } from './009_audit.ts';
import { h010 } from './010_report_days.ts';
import { h011 } from './011_events_floor.ts';
import { h012 } from './012_refund_holds.ts';
import { h013 } from './013_product_list.ts';
import { h014 } from './014_report_hours.ts';
import { h015 } from './015_product_search.ts';
import { h016 } from './016_month_partitions.ts';
import { h017 } from './017_report_months.ts';
import { h018 } from './018_staff_ids.ts';
import { h019 } from './019_report_shop_index.ts';
import { h020 } from './020_staff_refusals.ts';
import { h021 } from './021_times.ts';
import { h022 } from './022_report_tax.ts';
import { h023 } from './023_people_and_codes.ts';
import { h024 } from './024_till_trust.ts';
import { h025 } from './025_pin_verifiers.ts';
import { h026 } from './026_goods.ts';
import { h027 } from './027_prices.ts';
import { h028 } from './028_stock_changes.ts';
import { h029 } from './029_goods_register.ts';
import { h030 } from './030_stock_counts.ts';
import { h031 } from './031_goods_receipts.ts';
import { h032 } from './032_goods_opening.ts';
import { h033 } from './033_till_goods.ts';
import { h034 } from './034_export_accounts.ts';
import { h035 } from './035_sef.ts';
import { h036 } from './036_export_sums.ts';

/** One schema change. Its version is its position in the list (1, 2, 3 …); `hub_schema` records each one applied. */
export interface HubMigration {
  name: string;
  /** Run in order inside one transaction. */
  statements: readonly string[];
  /** Run after `statements` on one backend only. */
  only?: { postgres?: readonly string[]; pglite?: readonly string[] };
}

/**
 * Every hub migration, in order. Append only; never edit one that has shipped. A migration's version (its row in
 * `hub_schema`) is its position here, and its file is numbered as that version (test/electron/migration-files.test.ts).
 */
export const HUB_MIGRATIONS: readonly HubMigration[] = [
  h001,
  h002,
  h003,
  h004,
  h005,
  h006,
  h007,
  h008,
  h009,
  h010,
  h011,
  h012,
  h013,
  h014,
  h015,
  h016,
  h017,
  h018,
  h019,
  h020,
  h021,
  h022,
  h023,
  h024,
  h025,
  h026,
  h027,
  h028,
  h029,
  h030,
  h031,
  h032,
  h033,
  h034,
  h035,
  h036,
];
