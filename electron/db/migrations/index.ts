import type { Migration } from '../open.ts';
import { m001 } from './001_core.ts';
import { m002 } from './002_print_queue.ts';
import { m003 } from './003_catalog.ts';
import { m004 } from './004_manager.ts';
import { m005 } from './005_parked_drafts.ts';
import { m006 } from './006_auth_attempts.ts';
import { m007 } from './007_history.ts';
import { m008 } from './008_retry_budgets.ts';
import { m009 } from './009_hub_sync.ts';
import { m010 } from './010_history_lookups.ts';
import { m011 } from './011_report_days.ts';
import { m012 } from './012_tax_time.ts';
import { m013 } from './013_hub_state.ts';
import { m014 } from './014_print_truth.ts';
import { m015 } from './015_open_cart.ts';
import { m016 } from './016_shifts.ts';
import { m017 } from './017_hub_shifts.ts';
import { m018 } from './018_discount_approvals.ts';
import { m019 } from './019_processor.ts';
import { m020 } from './020_hub_processor.ts';
import { m021 } from './021_staff_uid.ts';
import { m022 } from './022_staff_pinless.ts';
import { m023 } from './023_lpfr_counter.ts';
import { m024 } from './024_hub_extra_receipts.ts';
import { m025 } from './025_outage_slips.ts';
import { m026 } from './026_goods.ts';
import { m027 } from './027_sef.ts';
import { m028 } from './028_stocktake.ts';
import { m029 } from './029_prices.ts';
import { m030 } from './030_hub_pin_verifiers.ts';
import { m031 } from './031_export_runs.ts';
import { m032 } from './032_display_tokens.ts';
import { m033 } from './033_labels.ts';
import { m034 } from './034_staff_at_hub.ts';
import { m035 } from './035_hub_stock_seen.ts';
import { m036 } from './036_hub_prices.ts';
import { m037 } from './037_export_days.ts';
import { m038 } from './038_hub_goods_queue.ts';

/**
 * Every migration, in order. Append only; never edit one that has shipped. A migration's version (the database's
 * user_version after it) is its position here, and its file is numbered as that version
 * (test/electron/migration-files.test.ts).
 */
export const MIGRATIONS: readonly Migration[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
  m021,
  m022,
  m023,
  m024,
  m025,
  m026,
  m027,
  m028,
  m029,
  m030,
  m031,
  m032,
  m033,
  m034,
  m035,
  m036,
  m037,
  m038,
];
