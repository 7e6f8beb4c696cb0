import type { Migration } from '../open.ts';
import { m001 } from './001_core.ts';
import { m002 } from './002_print_queue.ts';
import { m003 } from './003_catalog.ts';
import { m004 } from './004_manager.ts';
import { m005 } from './005_parked_drafts.ts';
import { m007 } from './007_auth_attempts.ts';
import { m008 } from './008_history.ts';
import { m009 } from './009_retry_budgets.ts';
import { m010 } from './010_hub_sync.ts';
import { m011 } from './011_history_lookups.ts';
import { m012 } from './012_report_days.ts';
import { m014 } from './014_tax_time.ts';

/**
 * Every migration, in order. Append only; never edit one that has shipped. A migration's `version` (the
 * database's user_version after it) is its position here; file numbers 007..010 were reserved per issue
 * while those four were built side by side (no 006 file exists), so from 007 on a file's number is one
 * above its version (011 is version 10, 012 version 11). 013 is reserved for another part of issue #21;
 * until it lands, 014 is version 12 (when 013 arrives first, 014 becomes version 13).
 */
export const MIGRATIONS: readonly Migration[] = [m001, m002, m003, m004, m005, m007, m008, m009, m010, m011, m012, m014];
