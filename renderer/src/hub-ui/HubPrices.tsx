/**
 * The hub's Цене section (issue 42, docs/prices.md "At the hub"): the shop's price lists, promotions and scheduled
 * price changes, its own and the chain's, listed; a promotion or a list (a percentage off a group, or off every
 * product) created or changed for this shop or the whole chain, deleted; a product's new price scheduled from a
 * moment on, or cancelled. The hub checks each by the till's rules; a refusal is said under its field in the
 * user's language, with the till's own words for it (shared/messages.ts), and nothing is saved.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { formatRsd, parseRsdInput } from '../../../shared/money.ts';
import { formatPercent, parsePercentInput } from '../../../shared/catalog/percent.ts';
import { formatMoment } from '../../../shared/i18n/time.ts';
import { hasMessage, message } from '../../../shared/messages.ts';
import type { HubPrices as Prices, HubScheduledRow, PriceWhere } from '../../../shared/hub/prices.ts';
import { ListTable } from '../ui/forms.tsx';
import { hubErrorText } from './HubApp.tsx';
import { Labelled } from './HubCatalog.tsx';
import { HubCallError, hubApi } from './api.ts';
import { pt, type HubPricesKey } from './prices-i18n.ts';
import { codeOf, itemField, itemLabel, PriceItems, type Found, type ItemRow } from './PriceItems.tsx';
import type { HubLang, HubT } from './i18n.ts';

type FormKind = 'promotion' | 'list' | 'schedule';
type Values = Record<string, string>;
type Errors = Record<string, string>;

/** The words of a scheduled price's state. */
const STATE_KEYS: Record<HubScheduledRow['state'], HubPricesKey> = {
  pending: 'statePending',
  applied: 'stateApplied',
  cancelled: 'stateCancelled',
  skipped: 'stateSkipped',
};

/** What each form asks, by the input's field name: the hub names the same field when it refuses. */
const FIELDS: Record<FormKind, readonly HubPricesKey[]> = {
  promotion: ['name', 'where', 'product', 'group', 'kind', 'price', 'percent', 'priority', 'fromDay', 'toDay'],
  list: ['name', 'where', 'buyer', 'buyerPib', 'group', 'percent', 'priority', 'fromDay', 'toDay'],
  schedule: ['product', 'where', 'price', 'at'],
};
/** The choices of a form's select fields, each with its label's key. */
const OPTIONS: Partial<Record<HubPricesKey, readonly (readonly [string, HubPricesKey])[]>> = {
  where: [
    ['shop', 'whereShop'],
    ['chain', 'whereChain'],
  ],
  kind: [
    ['price', 'kindPrice'],
    ['percent', 'kindPercent'],
  ],
  buyer: [
    ['all', 'buyerAll'],
    ['one', 'buyerOne'],
  ],
};
/** The input field each form field is sent as. */
const WIRE: Partial<Record<HubPricesKey, string>> = {
  product: 'code',
  group: 'group',
  percent: 'percent',
  buyer: 'scope',
};
const wireOf = (kind: FormKind, f: HubPricesKey): string =>
  kind === 'list' && f === 'group' ? 'ruleGroup' : kind === 'list' && f === 'percent' ? 'rulePercent' : (WIRE[f] ?? f);

/** An ISO day as the language writes it (`28.11.2026.`, `28/11/2026`). */
const dayText = (day: string | null, lang: HubLang): string => {
  if (!day) return '';
  const [y, m, d] = day.split('-');
  return lang === 'en' ? `${d}/${m}/${y}` : `${d}.${m}.${y}.`;
};

/** The input sent for a form's values; a figure that does not read is refused at its field before sending. */
function inputOf(
  kind: FormKind,
  v: Values,
  id: number | undefined,
  p: (k: HubPricesKey) => string,
  items: { rows: readonly ItemRow[]; found: Found; label: (i: number) => string },
) {
  const errors: Errors = {};
  const amount = (text: string, field: string, label: string): number | null => {
    if (text.trim() === '') return null;
    const para = parseRsdInput(text);
    if (para === null) errors[field] = label;
    return para === null ? null : para / 100;
  };
  const money = (f: HubPricesKey): number | null => amount(v[f] ?? '', f, p(f));
  const percent = (): number | null => {
    if ((v.percent ?? '') === '') return null;
    const bp = parsePercentInput(v.percent ?? '');
    if (bp === null) errors.percent = p('percent');
    return bp === null ? null : bp / 100;
  };
  const text = (f: HubPricesKey): string | null => ((v[f] ?? '').trim() === '' ? null : (v[f] ?? '').trim());
  const common = {
    ...(id !== undefined ? { id } : {}),
    name: v.name ?? '',
    where: (v.where ?? 'shop') as PriceWhere,
    priority: Number(v.priority || '0'),
    fromDay: text('fromDay'),
    toDay: text('toDay'),
  };
  if (kind === 'schedule') {
    const at = v.at ? new Date(v.at) : null;
    return {
      errors,
      input: {
        code: v.product ?? '',
        where: common.where,
        price: money('price') ?? 0,
        at: at && !isNaN(+at) ? at.toISOString() : '',
      },
    };
  }
  if (kind === 'list') {
    const rows = items.rows.map((r, i) => ({
      code: codeOf(r, items.found),
      price: amount(r.price, itemField(i, 'price'), items.label(i)) ?? 0,
    }));
    const buyer = v.buyer === 'one';
    return {
      errors,
      input: {
        ...common,
        scope: buyer ? 'buyer' : 'shop',
        buyerPib: buyer ? text('buyerPib') : null,
        items: rows,
        ruleGroup: text('group'),
        rulePercent: percent(),
      },
    };
  }
  const isPrice = (v.kind ?? 'price') === 'price';
  return {
    errors,
    input: {
      ...common,
      fromDay: common.fromDay ?? '',
      toDay: common.toDay ?? '',
      code: text('product'),
      group: text('group'),
      kind: isPrice ? 'price' : 'percent',
      price: isPrice ? money('price') : null,
      percent: isPrice ? null : percent(),
    },
  };
}

/** The form of a promotion, a list or a scheduled change: filled from a row to change it, empty for a new one. */
function RuleForm(props: {
  kind: FormKind;
  lang: HubLang;
  t: HubT;
  token: string;
  start: { id?: number; values: Values; items?: ItemRow[] };
  /** Saved: the rule's name. */
  onDone: (name: string) => void;
  onCancel: () => void;
}) {
  const { kind, lang } = props;
  const p = (k: HubPricesKey, params?: Record<string, string | number>) => pt(lang, k, params);
  const [v, setV] = useState<Values>(props.start.values);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [rows, setRows] = useState<ItemRow[]>(props.start.items ?? []);
  const [found] = useState(() => new Map<string, string>());
  const set = (f: string) => (e: { target: { value: string } }) => setV((x) => ({ ...x, [f]: e.target.value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { errors: local, input } = inputOf(kind, v, props.start.id, p, {
      rows,
      found,
      label: (i) => message(lang, 'number', { field: itemLabel(lang, i, 'price') }),
    });
    if (Object.keys(local).length) return setErrors(local);
    setBusy(true);
    try {
      const api = hubApi(props.token);
      const r =
        kind === 'promotion'
          ? await api.call('pricesPromotionPut', input as never)
          : kind === 'list'
            ? await api.call('pricesListPut', input as never)
            : await api.call('pricesSchedule', input as never);
      props.onDone(r.name);
    } catch (err) {
      // The refusal under the field it names (a product price's row and part), in the till's own words for it.
      const path = err instanceof HubCallError ? (err.field ?? '') : '';
      const wire = path.split('.')[0] ?? '';
      const row = /^items\.(\d+)\.(code|price)$/.exec(path);
      const field = row
        ? path
        : wire === 'items' && kind === 'list'
          ? 'items'
          : (FIELDS[kind].find((f) => wireOf(kind, f) === wire) ?? FIELDS[kind][0] ?? 'name');
      const label = row
        ? itemLabel(lang, Number(row[1]), row[2] as 'code' | 'price')
        : field === 'items'
          ? p('items')
          : p(field as HubPricesKey);
      const value = row ? (rows[Number(row[1])]?.product ?? '') : (v[field] ?? '');
      const code = err instanceof HubCallError ? (err.code ?? '') : '';
      // The hub's parameters (the other promotion an overlap names), with this form's label and value.
      const params = err instanceof HubCallError ? err.params : {};
      const text =
        code !== '' && hasMessage(code)
          ? message(lang, code, { value, ...params, field: label })
          : hubErrorText(props.t, err, { [wire]: label });
      setErrors({ [field]: text });
    } finally {
      setBusy(false);
    }
  };
  const id = (f: string) => `price-${kind}-${f}`;
  const described = (f: string) =>
    errors[f] ? { 'aria-invalid': true as const, 'aria-describedby': `${id(f)}-error` } : {};
  const title = kind === 'promotion' ? 'newPromotion' : kind === 'list' ? 'newList' : 'newSchedule';
  return (
    <form className="mgr-form" aria-label={p(title)} onSubmit={(e) => void submit(e)} noValidate>
      {FIELDS[kind]
        .filter((f) => f !== 'buyerPib' || v.buyer === 'one')
        .map((f) => (
          <Labelled key={f} id={id(f)} label={p(f)} error={errors[f]}>
            {OPTIONS[f] ? (
              <select id={id(f)} value={v[f] ?? ''} onChange={set(f)} {...described(f)}>
                {OPTIONS[f].map(([o, label]) => (
                  <option key={o} value={o}>
                    {p(label)}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id(f)}
                type={f === 'fromDay' || f === 'toDay' ? 'date' : f === 'at' ? 'datetime-local' : 'text'}
                inputMode={f === 'price' || f === 'percent' || f === 'priority' ? 'decimal' : undefined}
                value={v[f] ?? ''}
                onChange={set(f)}
                {...described(f)}
              />
            )}
          </Labelled>
        ))}
      {kind === 'list' && (
        <PriceItems
          lang={lang}
          token={props.token}
          rows={rows}
          onRows={setRows}
          onFound={(name, code) => found.set(name, code)}
          errors={errors}
          onImport={(imported) =>
            setV((x) => ({
              ...x,
              ...(imported.fromDay ? { fromDay: imported.fromDay } : {}),
              ...(imported.toDay ? { toDay: imported.toDay } : {}),
            }))
          }
        />
      )}
      <div className="mgr-actions">
        <button type="submit" disabled={busy}>
          {p('save')}
        </button>
        <button type="button" onClick={props.onCancel}>
          {p('cancel')}
        </button>
      </div>
    </form>
  );
}

/** A row's „Измени …“ and „Обриши …“, named by the row's rule. */
function RowActions(props: { lang: HubLang; name: string; onEdit: () => void; onRemove: () => void }) {
  const p = (k: HubPricesKey, name: string) => pt(props.lang, k, { name });
  return (
    <>
      <button type="button" aria-label={p('edit', props.name)} onClick={props.onEdit}>
        {p('edit', '').trim()}
      </button>{' '}
      <button type="button" aria-label={p('remove', props.name)} onClick={props.onRemove}>
        {p('remove', '').trim()}
      </button>
    </>
  );
}

export function HubPrices({ t, lang, token }: { t: HubT; lang: HubLang; token: string }) {
  const p = (k: HubPricesKey, params?: Record<string, string | number>) => pt(lang, k, params);
  const [prices, setPrices] = useState<Prices | null>(null);
  const [form, setForm] = useState<{ kind: FormKind; id?: number; values: Values; items?: ItemRow[] } | null>(null);
  // What was done, said in the language shown now (a change of language says it again).
  const [note, setNote] = useState<{ text: (lang: HubLang) => string; error: boolean } | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    hubApi(token)
      .call('prices')
      .then(setPrices)
      .catch((err: unknown) => setNote({ text: () => hubErrorText(t, err), error: true }));
  }, [token, version, t]);
  const decimal = lang === 'en' ? '.' : ',';
  // A discount's size without the sign the catalog's percentage change writes (`+10`): the words say it is off.
  const off = (bp: number): string => formatPercent(bp, decimal).replace(/^[+−-]/, '');
  const period = (from: string | null, to: string | null) =>
    from || to ? `${dayText(from, lang)} – ${dayText(to, lang)}` : p('always');
  const where = (w: PriceWhere) => p(w === 'chain' ? 'whereChain' : 'whereShop');
  const remove = async (id: number) => {
    try {
      await hubApi(token).call('pricesDelete', { id });
      setNote({ text: (l) => pt(l, 'removed'), error: false });
      setVersion((x) => x + 1);
    } catch (err) {
      setNote({ text: () => hubErrorText(t, err), error: true });
    }
  };
  const window = (r: { fromDay: string | null; toDay: string | null; priority: number }) => ({
    priority: String(r.priority),
    fromDay: r.fromDay ?? '',
    toDay: r.toDay ?? '',
  });
  /**
   * The promotions' or the lists' table: name, where, its deal (`deal`), period, priority, and „Измени …“ (the form
   * filled from the row: the common fields and the kind's own, `values`) and „Обриши …“.
   */
  const ruleTable = <R extends Prices['lists'][number] | Prices['promotions'][number]>(
    kind: 'promotion' | 'list',
    title: 'promotions' | 'lists',
    rows: R[] | undefined,
    deal: (r: R) => ReactNode,
    values: (r: R) => Values,
  ) => (
    <>
      <h2>{p(title)}</h2>
      {rows && (
        <ListTable
          none={p('none')}
          count={rows.length}
          scroll
          label={p(title)}
          headers={[p('name'), p('where'), p('deal'), p('period'), p('priority'), p('actions')]}
        >
          {rows.map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.name}</th>
              <td>{where(r.where)}</td>
              <td>{deal(r)}</td>
              <td>{period(r.fromDay, r.toDay)}</td>
              <td>{r.priority}</td>
              <td>
                <RowActions
                  lang={lang}
                  name={r.name}
                  onEdit={() =>
                    setForm({
                      kind,
                      id: r.id,
                      values: { name: r.name, where: r.where, ...values(r), ...window(r) },
                      items:
                        'items' in r
                          ? r.items.map((i) => ({ product: i.code, price: formatRsd(i.pricePara) }))
                          : undefined,
                    })
                  }
                  onRemove={() => void remove(r.id)}
                />
              </td>
            </tr>
          ))}
        </ListTable>
      )}
    </>
  );
  return (
    <section aria-label={t('prices')} className="mgr-tab">
      {note && (
        <p role={note.error ? 'alert' : 'status'} className={note.error ? 'mgr-error' : 'mgr-ok'}>
          {note.text(lang)}
        </p>
      )}
      <div className="mgr-actions">
        {(['promotion', 'list', 'schedule'] as const).map((k) => (
          <button
            key={k}
            type="button"
            onClick={() => setForm({ kind: k, values: { where: 'shop', kind: 'price', buyer: 'all' } })}
          >
            {p(k === 'promotion' ? 'newPromotion' : k === 'list' ? 'newList' : 'newSchedule')}
          </button>
        ))}
      </div>
      {form && (
        <RuleForm
          key={`${form.kind}-${form.id ?? 'new'}`}
          kind={form.kind}
          lang={lang}
          t={t}
          token={token}
          start={form}
          onCancel={() => setForm(null)}
          onDone={(name) => {
            setForm(null);
            setNote({ text: (l) => pt(l, 'saved', { name }), error: false });
            setVersion((x) => x + 1);
          }}
        />
      )}
      {ruleTable(
        'promotion',
        'promotions',
        prices?.promotions,
        (r) => (
          <>
            {(r.productName ?? r.code) || p('onGroup', { group: r.group ?? '' })}:{' '}
            {r.kind === 'price' && r.pricePara !== null
              ? p('dealPrice', { price: formatRsd(r.pricePara) })
              : r.kind === 'percent' && r.percentBp !== null
                ? p('dealPercent', { percent: off(r.percentBp) })
                : p('dealOther')}
          </>
        ),
        (r) => ({
          product: r.code ?? '',
          group: r.group ?? '',
          kind: r.kind === 'percent' ? 'percent' : 'price',
          price: r.pricePara !== null ? formatRsd(r.pricePara) : '',
          percent: r.percentBp !== null ? off(r.percentBp) : '',
        }),
      )}
      {ruleTable(
        'list',
        'lists',
        prices?.lists,
        (r) =>
          [
            r.buyerPib !== null ? p('forBuyer', { pib: r.buyerPib }) : null,
            r.items.length > 0
              ? `${p('listItems', { count: r.items.length })}: ${r.items
                  .map((i) => `${i.name ?? i.code} ${formatRsd(i.pricePara)}`)
                  .join(', ')}`
              : null,
            r.rulePercentBp === null
              ? null
              : r.ruleGroup
                ? p('listRule', { percent: off(r.rulePercentBp), group: r.ruleGroup })
                : p('listRuleAll', { percent: off(r.rulePercentBp) }),
          ]
            .filter((x) => x !== null)
            .join('; '),
        (r) => ({
          group: r.ruleGroup ?? '',
          percent: r.rulePercentBp !== null ? off(r.rulePercentBp) : '',
          buyer: r.scope === 'buyer' ? 'one' : 'all',
          buyerPib: r.buyerPib ?? '',
        }),
      )}
      <h2>{p('scheduled')}</h2>
      {prices && (
        <ListTable
          none={p('none')}
          count={prices.scheduled.length}
          scroll
          label={p('scheduled')}
          headers={[p('product'), p('where'), p('price'), p('at'), p('state'), p('actions')]}
        >
          {prices.scheduled.map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.name ?? r.code}</th>
              <td>{where(r.where)}</td>
              <td>{formatRsd(r.pricePara)}</td>
              <td>{formatMoment(r.at, lang)}</td>
              <td>{p(STATE_KEYS[r.state])}</td>
              <td>
                {r.state === 'pending' && (
                  <button
                    type="button"
                    aria-label={p('cancelOne', { name: r.name ?? r.code })}
                    onClick={() => void remove(r.id)}
                  >
                    {p('cancel')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </ListTable>
      )}
    </section>
  );
}
