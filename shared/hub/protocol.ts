/** The hub's wire contract: every input a till or a manager sends, as zod schemas (both sides import these). */
import { z } from 'zod';
import { BarcodeRuleSchema, ParkedCart } from '../contract/catalog.ts';
import { MAX_PERCENT_BP, MIN_PERCENT_BP } from '../catalog/price-change.ts';
import { KasaError } from '../errors.ts';
import { OrderRowData } from '../order-data.ts';

/**
 * The shop a manager's call names: the admin token names one, a manager's session acts on its own (the guard
 * decides, hub/guard.ts). A number in a body; in a GET's query string it is text, coerced.
 */
export const shopId = z.number().int().positive().optional();
export const shopIdInQuery = z.coerce.number().int().positive().optional();

/**
 * A refusal of the hub with its HTTP status, code and the field it names: thrown by the hub, and by the
 * till's client for the hub's answers. Its own subclass of the one error type because the till branches
 * on it (a refusal by the hub, not a failure of the till).
 */
export class HubError extends KasaError {
  /** The refusal's words' parameters (shared/messages.ts), e.g. the other promotion an overlap names. */
  readonly params: Readonly<Record<string, string | number>> | undefined;
  constructor(
    status: number,
    code: string,
    message: string,
    field?: string,
    params?: Readonly<Record<string, string | number>>,
  ) {
    super(code, message, { status, field });
    this.name = 'HubError';
    this.params = params;
  }
}

/** At most this many events in one push; a bigger batch is refused whole (413). */
export const MAX_BATCH_EVENTS = 500;
/** At most this many bytes in one request body. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

export const EnrolInput = z.object({
  code: z.string().trim().min(6).max(64),
  name: z.string().trim().min(1).max(100),
});

/**
 * One order as the till's hub outbox snapshots it, parsed with the till's own order shape
 * (shared/order-data.ts): an order the hub's reports or lookups could not read is refused, naming the field.
 */
export const OrderSnapshot = OrderRowData;

/**
 * A staff member as a till's hub outbox snapshots it (till migration 021): the person's stable id, and on a change
 * the PIN hash before it (`prev_pin_hash`). A snapshot without an id (queued by a till before it had ids) is
 * taken and not applied.
 */
export const StaffSnapshot = z.object({
  id: z.string().uuid().optional(),
  prev_pin_hash: z.string().max(300).optional(),
  name: z.string().trim().min(1).max(100),
  role: z.enum(['cashier', 'manager']),
  pin_hash: z.string().regex(/^scrypt\$[0-9a-f]+\$[0-9a-f]+$/),
  active: z.union([z.literal(0), z.literal(1)]),
});

/** A time a till sends: ISO 8601 with its offset (`Z` as the till writes it), as the hub stores it (timestamptz). */
const IsoTime = z.iso.datetime({ offset: true });

/** A PIN a till or the hub UI sends, as the hub takes it: 4 to 8 digits (a person's own or an approving one). */
export const HubPin = z.string().regex(/^\d{4,8}$/, { message: '4 to 8 digits' });

/**
 * A shift as a till's hub outbox snapshots it (till migration 017): at its open, each cash move and its
 * close. Expected and counted are set once it is closed.
 */
export const ShiftSnapshot = z.object({
  id: z.number().int().positive(),
  cashier: z.string().min(1).max(100),
  opened_at: IsoTime,
  opening_float_para: z.number().int().nonnegative(),
  closed_at: IsoTime.nullable(),
  closed_by: z.string().max(100).nullable(),
  expected_para: z.number().int().nullable(),
  counted_para: z.number().int().nonnegative().nullable(),
  counted_detail: z.record(z.string(), z.number().int().nonnegative()).nullable(),
  cash_in_para: z.number().int().nonnegative(),
  cash_out_para: z.number().int().nonnegative(),
});

export const HubEvent = z.object({
  seq: z.number().int().positive(),
  kind: z.enum(['order', 'audit', 'staff', 'shift']),
  ref: z.string().min(1).max(200),
  payload: z.record(z.string(), z.unknown()),
});

/**
 * The till's receipt printer as the till last knew it (its `print.status`). Words, not enums: a newer till
 * may report a state this hub does not know, and its push must not be refused for it (shown as unknown).
 */
export const TillPrinter = z.object({
  /** unconfigured | idle | printing | offline | stopped | failed */
  state: z.string().max(20),
  /** ok | near_end | out, null when the printer did not say */
  paper: z.string().max(20).nullable(),
  coverOpen: z.boolean().nullable(),
  /** none | cutter | mechanical | unrecoverable | recoverable, or null */
  error: z.string().max(20).nullable(),
  /** A job waits for the cashier's answer („Да ли је рачун одштампан?“). */
  unconfirmed: z.boolean(),
  /** Jobs held for a manager's decision. */
  held: z.number().int().nonnegative(),
});

export const TillStatus = z.object({
  queued: z.number().int().nonnegative(),
  needsAttention: z.number().int().nonnegative(),
  oldestQueuedAt: z.string().nullable(),
  hubQueued: z.number().int().nonnegative(),
  /** Optional: tills from before it was reported still push. */
  printer: TillPrinter.optional(),
  /** The till's current tax labels (the gateway's): the hub refuses a product whose label none of them has. */
  taxLabels: z.array(z.string().min(1).max(4)).max(50).optional(),
  /** Each current label's VAT rate in percent (the gateway's): the hub's goods receipt calculates retail prices. */
  taxRates: z
    .array(z.object({ label: z.string().min(1).max(4), rate: z.number().min(0).max(100) }))
    .max(50)
    .optional(),
  /** The till's name as the shop set it (its header's „Каса 2“): the hub lists the till by it, renamed too. */
  name: z.string().trim().min(1).max(100).optional(),
});

/** The last batch of a till the hub refused whole, as it records it (`tills.refusal`). */
export const TillRefusal = z.object({
  at: z.string(),
  status: z.number().int(),
  code: z.string(),
  field: z.string(),
  message: z.string(),
});
export type TillRefusal = z.infer<typeof TillRefusal>;

export const PushInput = z.object({
  tillId: z.number().int().positive(),
  events: z.array(HubEvent).max(MAX_BATCH_EVENTS),
  status: TillStatus.optional(),
});

export const LookupInput = z
  .object({
    orderNumber: z.string().trim().min(1).max(100).optional(),
    invoiceNumber: z.string().trim().min(1).max(100).optional(),
  })
  .refine((v) => v.orderNumber !== undefined || v.invoiceNumber !== undefined, {
    message: 'orderNumber or invoiceNumber is required',
    path: ['orderNumber'],
  });

/**
 * A refund about to be captured on a till: the lines (by index in the sale) and quantities it takes back, held
 * at the hub before the till captures it, so two tills refunding one sale cannot together refund more than was
 * sold (hub/refund-holds.ts). `holdId` is the till's random name for it, carried in the refund's `refundOf`.
 */
export const RefundHoldInput = z.object({
  invoiceNumber: z.string().trim().min(1).max(100),
  holdId: z.string().regex(/^[0-9a-f-]{16,64}$/),
  full: z.boolean(),
  lines: z
    .array(z.object({ index: z.number().int().nonnegative().max(9_999), quantityMilli: z.number().int().positive() }))
    .max(10_000),
});
export type RefundHoldInput = z.infer<typeof RefundHoldInput>;
/** A hold let go: the refund was not captured after all. */
export const RefundReleaseInput = z.object({ holdId: RefundHoldInput.shape.holdId });
/** The hub's answer to a hold: held, or refused with what is left of each line of the sale. */
export interface RefundHoldResult {
  held: boolean;
  /** Per line of the sale, what is left once other tills' refunds and holds are taken (refused holds only). */
  remaining?: { index: number; quantityMilli: number }[];
}

/** A cart parked on a till, pushed so another till of the shop can take it (`localId`: its id on that till). */
export const ParkInput = z.object({
  localId: z.number().int().positive(),
  name: z.string().max(200).nullable(),
  createdAt: IsoTime,
  cart: ParkedCart,
});
/** Takes a parked cart: another till's by the hub's `id`, or the asking till's own by its `localId`. */
export const ParkTakeInput = z
  .object({ id: z.number().int().positive().optional(), localId: z.number().int().positive().optional() })
  .refine((v) => (v.id === undefined) !== (v.localId === undefined), {
    message: 'exactly one of id or localId',
    path: ['id'],
  });

export const ProductInput = z.object({
  code: z.string().trim().min(1).max(64),
  name: z.string().trim().min(1).max(200),
  pricePara: z.number().int().nonnegative(),
  label: z.string().min(1).max(4),
  unit: z.enum(['piece', 'kg', 'l']),
  group: z.string().max(100).nullable().optional(),
  favourite: z.boolean().optional(),
  barcodes: z
    .array(z.string().regex(/^[0-9A-Za-z\-.]{1,64}$/))
    .max(50)
    .optional(),
  deleted: z.boolean().optional(),
});
export const ProductsInput = z.object({
  shopId,
  products: z.array(ProductInput).min(1).max(200_000),
});

/** The manager's product list: a page in code order after `after`, kept to `q` (code prefix or name part). */
export const ProductPageQuery = z.object({
  shopId: shopIdInQuery,
  q: z.string().trim().max(100).optional(),
  after: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
/** A bulk price change of a shop's group by a percentage (hundredths of a percent, shared/catalog/price-change.ts). */
export const HubBulkPriceInput = z.object({
  shopId,
  group: z.string().trim().min(1).max(100),
  percentBp: z
    .number()
    .int()
    .min(MIN_PERCENT_BP)
    .max(MAX_PERCENT_BP)
    .refine((v) => v !== 0, {
      message: 'a percentage other than zero is required',
    }),
  dryRun: z.boolean().optional(),
});
/**
 * A till's catalog offered at its enrolment (`POST /api/till/catalog`): adopted when the shop has no products;
 * with `replace` (the manager chose the till's), the till's catalog becomes the shop's.
 */
export const AdoptCatalogInput = z.object({
  products: z.array(ProductInput).max(200_000),
  replace: z.boolean().optional(),
  /** A hub manager's PIN, checked at the hub: without it nothing is written (issue 39). */
  approverPin: HubPin.optional(),
});
export type AdoptCatalogInput = z.infer<typeof AdoptCatalogInput>;
/** The catalog as CSV in the UI's language (shared/catalog/csv-export.ts). */
export const ProductsCsvQuery = z.object({
  shopId: shopIdInQuery,
  lang: z.enum(['sr-Cyrl', 'sr-Latn', 'en']).optional(),
});

export const StaffInput = z.object({
  /** The person's stable id; a new person without one gets one at the hub (a person known by name keeps theirs). */
  id: z.string().uuid().optional(),
  name: z.string().trim().min(1).max(100),
  role: z.enum(['cashier', 'manager']),
  pinHash: z.string().regex(/^scrypt\$[0-9a-f]+\$[0-9a-f]+$/),
  active: z.boolean().optional(),
});
export const StaffListInput = z.object({
  shopId,
  staff: z.array(StaffInput).min(1).max(10_000),
});

/**
 * A person as a till offers or changes them at the hub: the stable id and the hash of a PIN the till set (absent: the
 * person keeps the PIN the hub holds; a till holds verifiers, not the hub's hashes). With a new PIN set at the till,
 * an approved change also carries the PIN itself (`pin`, over the pinned TLS link, never stored), so the hub can make
 * every till's verifier of it (hub/pin-verifiers.ts); the hub uses it only when it is the hash's.
 */
export const TillPerson = z.object({
  id: z.string().uuid(),
  name: z.string().trim().min(1).max(100),
  role: z.enum(['cashier', 'manager']),
  pinHash: z
    .string()
    .regex(/^scrypt\$[0-9a-f]+\$[0-9a-f]+$/)
    .optional(),
  pin: HubPin.optional(),
  active: z.boolean(),
});
/**
 * A PIN typed at a till, asked of the hub (`POST /api/till/pin`, issue 39): a login or a manager's approval while the
 * hub is reachable, checked against the shop's active people (`id`: that person's only); with `newPin`, the person's
 * own PIN change, `pin` being their current PIN. Counted per till and shop like every PIN the hub checks.
 */
export const TillPinInput = z.object({
  pin: HubPin,
  id: z.string().uuid().optional(),
  newPin: z.string().max(100).optional(),
  /**
   * The till matched the PIN on a hash it made itself (a manager made there before enrolment): the hub, seeing the
   * PIN in clear, makes every till's verifier of it, not only the asking till's.
   */
  everyTill: z.literal(true).optional(),
});
export type TillPinInput = z.infer<typeof TillPinInput>;
/** The hub's answer to a till's PIN check: the person (never a hash), and with a PIN change this till's verifier. */
export interface TillPinAnswer {
  id: string;
  name: string;
  role: 'cashier' | 'manager';
  verifier?: string;
}
/**
 * A till's people offered right after its enrolment (`POST /api/till/staff`): a shop without an active manager
 * adopts them; else nothing is written and the shop's people are answered, for the manager to map or add.
 */
export const OfferStaffInput = z.object({ people: z.array(TillPerson).max(10_000) });
/**
 * A staff change made at an enrolled till (`POST /api/till/staff/change`): applied only when `approverPin` is the
 * PIN of an active manager of the shop, checked by the hub itself (counted against guessing). No people: the PIN
 * is only checked (a mapping at the till's staff choice, which writes nothing at the hub).
 */
export const TillStaffChangeInput = z.object({
  approverPin: HubPin,
  people: z.array(TillPerson).max(100),
});
/** A person of the shop as a till is shown them to map its own people to (never a PIN hash). */
export interface HubPerson {
  id: string;
  name: string;
  role: 'cashier' | 'manager';
  active: boolean;
}

/** A person of a shop deactivated or reactivated at the hub UI (`POST /api/admin/staff/active`). */
export const StaffActiveInput = z.strictObject({
  shopId,
  name: z.string().trim().min(1).max(100),
  active: z.boolean(),
});
/**
 * A person's new PIN set at the hub UI (`POST /api/admin/staff/pin`): digits only, 4 to 8, and at least
 * `MIN_MANAGER_PIN_DIGITS` for a manager (checked by the hub, which knows the role: `pin_format`, `pin_short`).
 */
export const StaffPinInput = z.strictObject({
  shopId,
  name: z.string().trim().min(1).max(100),
  pin: z.string().max(100),
});
/**
 * A person added at the hub UI (`POST /api/admin/staff/add`): the name (the till's name rule, checked by the hub),
 * the role and the first PIN, hashed at the hub (`pin_format`, `pin_short`, `pin_taken` at `pin`).
 */
export const StaffAddInput = z.strictObject({
  shopId,
  name: z.string().trim().min(1).max(100),
  role: z.enum(['cashier', 'manager']),
  pin: z.string().max(100),
});
/** A person of a shop as the hub UI lists them: never a PIN hash. */
export interface HubStaffRow {
  name: string;
  role: 'cashier' | 'manager';
  active: boolean;
}

/**
 * The settings a shop's tills share, set at the hub (`PUT /api/admin/settings`) and applied by every till
 * (its own `settings.update` / `catalog.barcodeRules` change them locally until the hub's next change).
 */
export const ShopSettings = z.strictObject({
  /** Price/weight barcode rules (the till's `catalog.barcodeRules`). */
  barcodeRules: z.array(BarcodeRuleSchema).max(10).optional(),
  /** A line discount above this share of the line total needs a manager's approval (percent). */
  discountLimitPercent: z.number().int().min(0).max(100).optional(),
  outageWarnMinutes: z.number().int().min(1).max(10_080).optional(),
  outageAlarmMinutes: z.number().int().min(1).max(40_320).optional(),
  /**
   * The hub sends the shop's e-invoices to SEF (set by the hub itself when it has the shop's SEF key, docs/sef.md):
   * the tills make none of their own then.
   */
  sefFromHub: z.boolean().optional(),
});
export const ShopSettingsInput = z.strictObject({
  shopId,
  // Whether the hub sends the e-invoices is the hub's to say (its SEF key), not a manager's setting.
  settings: ShopSettings.omit({ sefFromHub: true }),
});
export type ShopSettings = z.infer<typeof ShopSettings>;

export const EnrolCodeInput = z.object({ shopId: z.number().int().positive() });
/** True for a time zone name this runtime knows (`Europe/Belgrade`). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
const isoTime = z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: 'an ISO date-time is required' });
/** A report: of one shop, or of the whole chain without `shopId`; [from, to), default today until now. */
export const ReportInput = z.object({
  shopId: shopIdInQuery,
  from: isoTime.optional(),
  to: isoTime.optional(),
  /** `receipts`: the receipts list for the accountant as CSV (shared/reports/receipts.ts). */
  format: z.enum(['json', 'csv', 'receipts']).optional(),
  /** The CSV's times in this IANA zone (the hub UI sends the browser's); the hub's own zone without it. */
  timeZone: z
    .string()
    .max(64)
    .refine((v) => isTimeZone(v), { message: 'a time zone name such as Europe/Belgrade is required' })
    .optional(),
  /** The CSV's headers and names in this UI language (the hub UI sends its own); English machine names without. */
  lang: z.enum(['sr-Cyrl', 'sr-Latn', 'en']).optional(),
});
/** The hub UI's manager login: a manager's PIN (staff come from the tills or PUT /api/admin/staff). */
export const LoginInput = z.object({
  pin: HubPin,
  shopId,
});
/** Clears a till's refused invoice claims (its `invoice_claimed` alarm) once a manager has looked. */
export const ClaimsClearInput = z.object({ tillId: z.number().int().positive() });
/** Revokes an unspent enrolment code, named by its id (`GET /api/admin/enrol-codes` lists them). */
export const EnrolCodeRevokeInput = z.strictObject({
  shopId,
  id: z.number().int().positive(),
});
/** Revokes a till's credential (a lost or stolen till). */
export const TillRevokeInput = z.object({ tillId: z.number().int().positive() });
export const ShopQuery = z.object({ shopId: shopIdInQuery });
export const ShopInput = z.object({ name: z.string().trim().min(1).max(200) });

export type EnrolInput = z.infer<typeof EnrolInput>;
export type ReportInput = z.infer<typeof ReportInput>;
export type OrderSnapshot = z.infer<typeof OrderSnapshot>;
export type StaffSnapshot = z.infer<typeof StaffSnapshot>;
export type TillPerson = z.infer<typeof TillPerson>;
export type TillStaffChangeInput = z.infer<typeof TillStaffChangeInput>;
export type ShiftSnapshot = z.infer<typeof ShiftSnapshot>;
export type HubEvent = z.infer<typeof HubEvent>;
export type TillStatus = z.infer<typeof TillStatus>;
export type TillPrinter = z.infer<typeof TillPrinter>;
export type PushInput = z.infer<typeof PushInput>;
export type LookupInput = z.infer<typeof LookupInput>;
export type ParkInput = z.infer<typeof ParkInput>;
export type ParkTakeInput = z.infer<typeof ParkTakeInput>;
export type ProductInput = z.infer<typeof ProductInput>;
export type StaffInput = z.infer<typeof StaffInput>;
export type StaffActiveInput = z.infer<typeof StaffActiveInput>;
export type StaffPinInput = z.infer<typeof StaffPinInput>;
export type StaffAddInput = z.infer<typeof StaffAddInput>;

/** An event of a batch the hub took (acknowledged) but did not apply, and why. */
export interface PushRefusal {
  seq: number;
  /** `invoice_claimed`: the order's invoice number belongs to another order of the shop. */
  code: string;
  field: string;
  message: string;
}

/**
 * What a push answers: everything up to `acked` is stored; `gaps` are sequence ranges never received;
 * `refused` the events kept as evidence but not applied (absent from an older hub).
 */
export interface PushResult {
  acked: number;
  stored: number;
  duplicates: number;
  gaps: { from: number; to: number }[];
  refused?: PushRefusal[];
  /**
   * The status's name was not taken (`status.name`: another till's name, or a reserved word): the hub keeps
   * listing the till by its earlier name. Absent when the status was taken whole.
   */
  statusRefused?: { code: string; field: string; message: string };
}

/** The statuses of a push the hub refused for what the batch holds (the till keeps the batch and says so). */
export const REFUSED_BATCH_STATUSES: readonly number[] = [400, 409, 413, 422];

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text PostgreSQL cannot store: a NUL (U+0000) anywhere, or a lone UTF-16 surrogate (it has no UTF-8 form;
 * the drivers would silently turn it into U+FFFD). Returns the path of the first value or key holding one
 * (`events.0.payload.data.lines.0.name`), or null when everything can be stored.
 */
export function unstorableText(value: unknown, path: readonly (string | number)[] = []): string | null {
  const bad = (s: string): boolean => s.includes('\0') || LONE_SURROGATE.test(s);
  const here = (): string => (path.length ? path.join('.') : 'body');
  if (typeof value === 'string') return bad(value) ? here() : null;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = unstorableText(v, [...path, i]);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      // A bad key is named by its parent: the key itself cannot be shown.
      if (bad(k)) return here();
      const found = unstorableText(v, [...path, k]);
      if (found !== null) return found;
    }
  }
  return null;
}

/** Refuses input holding text PostgreSQL cannot store (400 `invalid_text`, naming the field). */
export function refuseUnstorableText(raw: unknown): void {
  const field = unstorableText(raw);
  if (field === null) return;
  throw new HubError(
    400,
    'invalid_text',
    `${field}: a NUL character or a broken Unicode character (lone surrogate) cannot be stored`,
    field,
  );
}

/** One master-data batch after `since`; apply it whole, then ask again from `cursor`. */
export interface ChangesResult {
  cursor: number;
  more: boolean;
  products: (Required<Omit<ProductInput, 'group'>> & { group: string | null; version: number })[];
  /**
   * The shop's people changed after `since`: never a PIN hash of the hub; `verifier` is this till's own verifier of
   * the person's PIN (shared/node/pin-verifier.ts), '' while the hub has made none for it.
   */
  staff: {
    id: string;
    name: string;
    role: 'cashier' | 'manager';
    active: boolean;
    verifier: string;
    version: number;
  }[];
  /** This till's PIN key (hex), the salt of its verifiers; absent from an older hub. */
  pinKey?: string;
  /** Shop settings changed after `since` (keys of `ShopSettings`); absent from an older hub. */
  settings?: { key: string; value: unknown; version: number }[];
  /**
   * The shop's and its chain's price lists, promotions and scheduled price changes changed after `since`
   * (shared/hub/prices.ts; the till parses each with `HubPriceChange`); absent from an older hub.
   */
  prices?: unknown[];
}

/** A sale found at the hub, for a refund on another till. */
export interface HubOrder {
  tillId: number;
  tillName: string;
  /** True when a refund of it is stored at the hub (from any till of the shop). */
  refunded: boolean;
  order: OrderSnapshot;
  /** Refunds of it made on OTHER tills of the shop (the asking till knows its own): what each took back. */
  refunds: HubRefund[];
}

/** A refund stored at the hub: the till, its order number and its `data.refundOf` as the till wrote it. */
export interface HubRefund {
  tillId: number;
  orderNumber: string;
  refundOf: unknown;
}

/** A parked cart at the hub, as the list shows it (`till`: the terminal that parked it). */
export interface HubParkedSummary {
  id: number;
  tillId: number;
  tillName: string;
  localId: number;
  name: string | null;
  createdAt: string;
  lines: number;
  totalPara: number;
}

/** A parked cart taken at the hub: it is no longer there. */
export interface HubParkedCart extends HubParkedSummary {
  cart: ParkedCart;
}
