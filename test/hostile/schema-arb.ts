/**
 * fast-check arbitraries derived from a command's zod input schema (through its JSON Schema), so that a
 * command added to the contract is fuzzed without anyone writing a generator for it:
 * - `validish`: objects of the schema's shape (types, required keys, enums, patterns, bounds), with
 *   hints for fields whose useful values the schema cannot say (tax labels, ids, prices);
 * - `nearValid`: such an object with ONE thing wrong: a field removed, a field of the wrong type or an
 *   edge value, an unknown key (also `__proto__`/`constructor`), or the root replaced;
 * - `hostileJson`: arbitrary JSON, with the edge values mixed in.
 */
import fc from 'fast-check';
import { z } from 'zod';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

export function toJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
}

/** Values that break naive code: empty, huge, negative, fractional, control characters, lookalikes. */
export const EDGE_VALUES: readonly unknown[] = [
  null,
  '',
  ' ',
  '\u0000',
  '\u202e\u0410', // RTL override + Cyrillic А
  'A\u0301',
  '😀'.repeat(50),
  'x'.repeat(5000),
  '0',
  '-1',
  '1e309',
  'NaN',
  '../../etc/passwd',
  "'; DROP TABLE orders; --",
  '<script>alert(1)</script>',
  0,
  -0,
  -1,
  0.001,
  1.005,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  1e308,
  -1e308,
  5e-324,
  true,
  false,
  [],
  [null],
  {},
  { length: 1 },
];

export const edgeValue = (): fc.Arbitrary<unknown> => fc.constantFrom(...EDGE_VALUES);

/** Arbitrary JSON with edge values mixed in (depth-limited). */
export const hostileJson = (): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 1, arbitrary: edgeValue() });

/** Good values for fields the schema cannot describe well (keyed by property name). */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

export const DEFAULT_HINTS: Hints = {
  labels: fc.array(fc.constantFrom('A', 'Ђ', 'Ж', 'E', 'F', 'Г', 'Q'), { minLength: 1, maxLength: 2 }),
  label: fc.constantFrom('A', 'Ђ', 'Ж', 'E', 'F', 'Q'),
  orderId: fc.integer({ min: 1, max: 40 }),
  id: fc.integer({ min: 1, max: 10 }),
  // A checkout line's catalog product: the sample catalog's ids, so its price check is reached.
  productId: fc.integer({ min: 1, max: 60 }),
  unitPrice: fc.oneof(
    fc.integer({ min: 0, max: 5000 }),
    fc.integer({ min: 1, max: 500_000 }).map((p) => p / 100),
  ),
  amount: fc.oneof(
    fc.integer({ min: 0, max: 20_000 }),
    fc.integer({ min: 1, max: 2_000_000 }).map((p) => p / 100),
  ),
  quantity: fc.oneof(
    fc.integer({ min: 1, max: 20 }),
    fc.integer({ min: 1, max: 50_000 }).map((q) => q / 1000),
  ),
  managerPin: fc.constantFrom('1234', '9999', '12345678'),
  pin: fc.constantFrom('1234', '5678', '4321'),
  currentPin: fc.constantFrom('1234', '9999'),
  // Keep the fuzzed till on its own sandbox and printer: never point them at something real.
  uri: fc.constantFrom('file:///dev/null', 'tcp://127.0.0.1:1', 'nonsense'),
  gatewayUrl: fc.constantFrom('http://127.0.0.1:1/', 'not a url'),
  csv: fc.constantFrom('', 'code;name;price;label\n1;Хлеб;65,50;Ђ\n', 'a,b\n"unterminated', '\uFEFFšifra;naziv\n'),
};

function resolve(root: JsonSchema, s: JsonSchema): JsonSchema {
  if (s.$ref?.startsWith('#/$defs/')) {
    const def = root.$defs?.[s.$ref.slice('#/$defs/'.length)];
    if (def) return def;
  }
  return s;
}

const MAX_STRING = 40;

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  if (s.format === 'email') return fc.emailAddress();
  if (s.format === 'uri') return fc.webUrl();
  if (s.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (s.format === 'date')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? Infinity));
    } catch {
      // fall through: a pattern fast-check cannot invert
    }
  }
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? MAX_STRING, minLength + MAX_STRING));
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ unit: 'grapheme', minLength, maxLength }),
    fc.constantFrom('Хлеб', 'Mleko 1l', 'Ćevapi'),
  );
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-9) : undefined);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-9) : undefined);
  if (integer) {
    const min = Math.max(lo ?? -1000, -(2 ** 31));
    const max = Math.min(hi ?? 100_000, 2 ** 31);
    return fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min, max: Math.min(max, min + 50) }) },
      { weight: 1, arbitrary: fc.integer({ min, max }) },
    );
  }
  return fc.oneof(
    fc.integer({ min: Math.ceil(lo ?? 0), max: Math.floor(Math.min(hi ?? 10_000, 10_000)) }),
    fc.double({ min: lo ?? -1e6, max: hi ?? 1e6, noNaN: true, noDefaultInfinity: true }),
  );
}

/** Values of the schema's shape (they may still fail refinements the JSON Schema cannot express). */
export function validish(
  root: JsonSchema,
  schema: JsonSchema = root,
  hints: Hints = DEFAULT_HINTS,
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = resolve(root, schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alts = s.anyOf ?? s.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((a) => validish(root, a, hints, depth + 1)));
  if (s.allOf?.length) return validish(root, s.allOf[0] as JsonSchema, hints, depth + 1);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((t) => validish(root, { ...s, type: t }, hints, depth + 1)));
  switch (types[0]) {
    case 'object': {
      if (s.properties && Object.keys(s.properties).length > 0) {
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, prop] of Object.entries(s.properties)) {
          const base = validish(root, prop, hints, depth + 1);
          const hint = hints[key];
          model[key] = hint ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: base }) : base;
        }
        return fc.record(model, { requiredKeys: s.required ?? [] });
      }
      if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        const keys = s.propertyNames
          ? (validish(root, s.propertyNames, hints, depth + 1) as fc.Arbitrary<string>)
          : fc.string({ maxLength: 8 });
        return fc.dictionary(keys, validish(root, s.additionalProperties, hints, depth + 1), { maxKeys: 3 });
      }
      return fc.constant({});
    }
    case 'array': {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 4, minLength + 3));
      return fc.array(s.items ? validish(root, s.items, hints, depth + 1) : hostileJson(), { minLength, maxLength });
    }
    case 'string':
      return stringArb(s);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return depth > 3 ? fc.constant(null) : hostileJson();
  }
}

/** The paths (keys from the root) of every value inside `v`, root included as []. */
function paths(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...prefix, i])));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...prefix, k]));
  return out;
}

/** Sets an OWN property (so `__proto__` is a key, as JSON.parse makes it on the other side). */
function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

function clone(v: unknown): unknown {
  return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown);
}

export type Mutation = 'delete' | 'replace' | 'unknown_key' | 'root';

/** Applies one mutation at the `pick`-th path of `value`. */
export function mutate(value: unknown, op: Mutation, pick: number, replacement: unknown, key: string): unknown {
  const v = clone(value);
  if (op === 'root') return replacement;
  const all = paths(v);
  const containers = all.filter((p) => {
    const x = get(v, p);
    return x !== null && typeof x === 'object';
  });
  const leaves = all.filter((p) => p.length > 0);
  if (op === 'unknown_key') {
    const target = containers.length ? (containers[pick % containers.length] as (string | number)[]) : [];
    const obj = get(v, target);
    if (obj && typeof obj === 'object' && !Array.isArray(obj)) setOwn(obj as Record<string, unknown>, key, replacement);
    else if (Array.isArray(obj)) obj.push(replacement);
    else return replacement;
    return v;
  }
  if (leaves.length === 0) return op === 'delete' ? {} : replacement;
  const p = leaves[pick % leaves.length] as (string | number)[];
  const parent = get(v, p.slice(0, -1)) as Record<string, unknown> | unknown[];
  const last = p[p.length - 1] as string | number;
  if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last as string];
  } else if (Array.isArray(parent)) parent[Number(last)] = replacement;
  else setOwn(parent, String(last), replacement);
  return v;
}

export function get(v: unknown, p: readonly (string | number)[]): unknown {
  let cur: unknown = v;
  for (const k of p) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (!Object.hasOwn(cur, k)) return undefined;
    cur = (cur as Record<string, unknown>)[k as string];
  }
  return cur;
}

/** One wrong thing in an otherwise schema-shaped value. */
export function nearValid(
  root: JsonSchema,
  hints: Hints = DEFAULT_HINTS,
): fc.Arbitrary<{ value: unknown; mutation: Mutation }> {
  return fc
    .tuple(
      validish(root, root, hints),
      fc.constantFrom<Mutation>('delete', 'replace', 'replace', 'unknown_key', 'root'),
      fc.nat(),
      fc.oneof({ weight: 2, arbitrary: edgeValue() }, { weight: 1, arbitrary: hostileJson() }),
      fc.constantFrom('extra', '__proto__', 'constructor', 'sql', 'x-field', ''),
    )
    .map(([value, mutation, pick, replacement, key]) => ({
      value: mutate(value, mutation, pick, replacement, key),
      mutation,
    }));
}
