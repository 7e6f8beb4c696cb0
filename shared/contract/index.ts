/**
 * The one contract between the UI and the core: every command (name, zod input schema, result type)
 * and every event. Both transports (Electron IPC and the HTTP host) carry exactly this and nothing else.
 */
import type { z } from 'zod';
import type { CommandDef, EventDef, Result } from './define.ts';
import type { Approval } from './authz.ts';
import { salesCommands } from './sales.ts';
import { ordersCommands, ordersEvents } from './orders.ts';
import { syncCommands, syncEvents } from './sync.ts';
import { printerCommands, printerEvents } from './printer.ts';
import { catalogCommands, catalogEvents } from './catalog.ts';
import { retriesCommands } from './retries.ts';
import { hubCommands } from './hub.ts';
import { staffCommands, staffEvents } from './staff.ts';
import { refundsCommands } from './refunds.ts';
import { advancesCommands } from './advances.ts';
import { copiesCommands } from './copies.ts';
import { emailsCommands, emailsEvents } from './emails.ts';
import { archiveCommands } from './archive.ts';
import { settingsCommands } from './settings.ts';
import { reportsCommands } from './reports.ts';
import { backupsCommands } from './backups.ts';
import { auditCommands } from './audit.ts';
import { shiftsCommands } from './shifts.ts';
import { goodsCommands } from './goods.ts';
export type { SefDocumentView, SefIncomingResult, SefOfferView, SefSettingsView, SefState } from './sef.ts';
import { sefCommands } from './sef.ts';
import { pricesCommands } from './prices.ts';
import { exportsCommands } from './exports.ts';
import { displayCommands, displayEvents } from './display.ts';
import { labelsCommands } from './labels.ts';
import { hubGoodsCommands } from './hub-goods.ts';

export * from './define.ts';
export { CheckoutInput, CheckoutLine } from './sales.ts';
export type { CheckoutResult, IpsRequestView } from './sales.ts';
export type { DisplayFrame, DisplayLineView, DisplayPhase, DisplayTokenView } from './display.ts';
export type { OrderListResult } from './orders.ts';
// The views the renderer shows, from one place (each is defined in its area's file).
export type { StaffRole, StaffView } from './staff.ts';
export type { RefundInput, RefundSource, RefundableLine } from './refunds.ts';
export type { AdvanceChainView } from './advances.ts';
export type { EmailView } from './emails.ts';
export type { ArchiveDetail, ArchiveRow, LookupRow } from './archive.ts';
export type { AccountView, SettingsView } from './settings.ts';
export type { ReportView } from './reports.ts';
export type { BackupsView } from './backups.ts';
export type { AuditEntry } from './audit.ts';
export type { ShiftView, ShiftMoveView } from './shifts.ts';
export type { AccountsView, ExportView, ExportFileKind, Posting } from './exports.ts';
export type { PriceListView, PricedLineView, PricesOverview, PromotionView, ScheduledPriceView } from './prices.ts';
export type {
  KepEntry,
  KepView,
  PriceChangeView,
  ReceiptSummary,
  ReceiptView,
  StockView,
  SupplierView,
  WriteOffView,
} from './goods.ts';

/**
 * The contract's areas, one file each in this folder, named by the prefix of their commands' names
 * (`orders.get` is in orders.ts); each area's handlers are one handlers file beside its code in electron/.
 */
export const contractAreas = {
  sales: salesCommands,
  orders: ordersCommands,
  sync: syncCommands,
  printer: printerCommands,
  catalog: catalogCommands,
  retries: retriesCommands,
  hub: hubCommands,
  staff: staffCommands,
  refunds: refundsCommands,
  advances: advancesCommands,
  copies: copiesCommands,
  emails: emailsCommands,
  archive: archiveCommands,
  settings: settingsCommands,
  reports: reportsCommands,
  backups: backupsCommands,
  audit: auditCommands,
  shifts: shiftsCommands,
  goods: goodsCommands,
  sef: sefCommands,
  prices: pricesCommands,
  exports: exportsCommands,
  display: displayCommands,
  labels: labelsCommands,
  hubGoods: hubGoodsCommands,
} as const;
export type Area = keyof typeof contractAreas;

/** The name prefixes of each area: its own name, and for a few areas more (`taxRates.get` is a sale's). */
export const AREA_PREFIXES: { readonly [A in Area]: readonly string[] } = {
  sales: ['sales', 'taxRates', 'app', 'cart', 'ips'],
  orders: ['orders'],
  sync: ['sync'],
  printer: ['print', 'printer'],
  catalog: ['catalog', 'parked'],
  retries: ['retries'],
  hub: ['hub'],
  staff: ['staff'],
  refunds: ['refunds'],
  advances: ['advances'],
  copies: ['copies'],
  emails: ['emails'],
  archive: ['archive'],
  settings: ['settings'],
  reports: ['reports'],
  backups: ['backups'],
  audit: ['audit'],
  shifts: ['shifts'],
  goods: ['goods', 'suppliers'],
  sef: ['sef'],
  prices: ['prices'],
  exports: ['exports'],
  display: ['display'],
  labels: ['labels'],
  hubGoods: ['hubGoods'],
};

export const commands = {
  ...salesCommands,
  ...ordersCommands,
  ...syncCommands,
  ...printerCommands,
  ...catalogCommands,
  ...retriesCommands,
  ...hubCommands,
  ...staffCommands,
  ...refundsCommands,
  ...advancesCommands,
  ...copiesCommands,
  ...emailsCommands,
  ...archiveCommands,
  ...settingsCommands,
  ...reportsCommands,
  ...backupsCommands,
  ...auditCommands,
  ...shiftsCommands,
  ...goodsCommands,
  ...sefCommands,
  ...pricesCommands,
  ...exportsCommands,
  ...displayCommands,
  ...labelsCommands,
  ...hubGoodsCommands,
} as const;

export const events = {
  ...ordersEvents,
  ...syncEvents,
  ...printerEvents,
  ...catalogEvents,
  ...emailsEvents,
  ...staffEvents,
  ...displayEvents,
} as const;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type EventName = keyof typeof events;

export type CommandInput<N extends CommandName> = z.input<Commands[N]['input']>;
export type CommandParsedInput<N extends CommandName> = z.output<Commands[N]['input']>;
export type CommandResult<N extends CommandName> = Commands[N] extends CommandDef<z.ZodType, infer R> ? R : never;
export type EventPayload<E extends EventName> = (typeof events)[E] extends EventDef<infer P> ? P : never;

export const COMMAND_NAMES = Object.keys(commands) as CommandName[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

/** The commands of one area, by name. */
export type AreaCommandName<A extends Area> = keyof (typeof contractAreas)[A] & CommandName;

/** The area whose contract file defines `name`. */
export function areaOf(name: CommandName): Area {
  for (const area of Object.keys(contractAreas) as Area[]) if (Object.hasOwn(contractAreas[area], name)) return area;
  throw new Error(`${name} is in no contract area`);
}

/** A command's input plus the manager's approval the core may ask for (an empty input takes only that). */
export type WithApproval<T> = string extends keyof T ? { approval?: Approval } : T & { approval?: Approval };

/** The shape of `window.pos` and of the HTTP client: one function per command, one subscriber per event. */
export type PosApi = {
  [N in CommandName]: (input: WithApproval<CommandInput<N>>) => Promise<Result<CommandResult<N>>>;
} & {
  /** Subscribes to one event; returns the unsubscribe function. */
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
};

/** An event as it travels: its name and payload. */
export type EventMessage = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName];
