/**
 * Менаџер → Цене (docs/prices.md): what is in force now and what changes next for a product, the price lists
 * (this shop, the chain, a business buyer by PIB; a time window; prices or a rule on a group), the promotions
 * (a price or a percentage, N for M, the n-th unit off; a product or a group) and the scheduled price changes.
 * Every refusal of the core is shown at its field; a deletion asks first.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { ProductGroup, ProductView } from '../../../shared/contract/catalog.ts';
import type {
  PricedLineView,
  PriceListView,
  PricesOverview,
  PromotionKind,
  PromotionView,
  ScheduledPriceView,
} from '../../../shared/contract/prices.ts';
import { PROMOTION_KINDS } from '../../../shared/contract/prices.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatPercent, parsePercentInput } from '../../../shared/catalog/percent.ts';
import { formatMoment, LOCALE, wallClock, dayStart } from '../../../shared/i18n/time.ts';
import { formatQuantity, formatRsd, milliToDecimal, parseQuantityInput, parseRsdInput } from '../../../shared/money.ts';
import { Modal } from '../components/Modal.tsx';
import { formatDay } from '../dates.ts';
import { DateField } from './DateField.tsx';
import { PriceItemsCsv } from './PriceItemsCsv.tsx';
import {
  Alert,
  ApprovedForm,
  call,
  ChoiceField,
  Field,
  MgrTable,
  NoteAndAlert,
  PinInput,
  pinOf,
  formInput,
  useAction,
  useRunner,
  type ApprovedField,
  type Runner,
} from './common.tsx';
import type { ManagerT, ManagerText } from './i18n.ts';

interface TabProps {
  api: PosApi;
  t: ManagerT;
  lang: Language;
}

/** A decimal for the contract from what was typed (a decimal comma or point); NaN when it is not one. */
function decimalOf(text: string, parse: (s: string) => number | null, scale: number): number | null {
  if (text.trim() === '') return null;
  const v = parse(text);
  return v === null ? Number.NaN : v / scale;
}
const money = (text: string): number | null => decimalOf(text, parseRsdInput, 100);
const percent = (text: string): number | null => decimalOf(text, parsePercentInput, 100);
const whole = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()));
const moneyText = (para: number | null): string => (para === null ? '' : formatRsd(para));
const percentText = (bp: number | null): string => (bp === null ? '' : formatPercent(bp).replace(/^\+/, ''));

/** The shop's instant of a day and a time of day (Europe/Belgrade), whatever the machine's own zone. */
function shopInstant(day: string, time: string): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const wanted = h * 60 + m;
  let at = dayStart(day) + wanted * 60_000;
  // A day with a daylight-saving change is an hour shorter or longer: correct by what the clock there says.
  const c = wallClock(new Date(at));
  at -= (Number(c.hour) * 60 + Number(c.minute) - wanted) * 60_000;
  return new Date(at).toISOString();
}

/** Monday … Sunday (1 … 7) as the language abbreviates them. */
function weekdayNames(lang: Language): string[] {
  const f = new Intl.DateTimeFormat(LOCALE[lang], { weekday: 'short', timeZone: 'UTC' });
  // 2026-11-23 is a Monday.
  return [1, 2, 3, 4, 5, 6, 7].map((d) => f.format(new Date(Date.UTC(2026, 10, 22 + d))));
}

interface WindowForm {
  fromDay: string | null;
  toDay: string | null;
  weekdays: number[];
  fromTime: string;
  toTime: string;
}
const NO_WINDOW: WindowForm = { fromDay: '', toDay: '', weekdays: [], fromTime: '', toTime: '' };
type WindowField = keyof WindowForm;
const windowOfView = (v: {
  fromDay: string | null;
  toDay: string | null;
  weekdays: number[];
  fromTime: string | null;
  toTime: string | null;
}): WindowForm => ({
  fromDay: v.fromDay ?? '',
  toDay: v.toDay ?? '',
  weekdays: v.weekdays,
  fromTime: v.fromTime ?? '',
  toTime: v.toTime ?? '',
});

/** The window as the contract takes it; a day still mistyped stops the form at its field. */
function windowInput(t: ManagerT, w: WindowForm, labels: Record<WindowField, string>) {
  if (w.fromDay === null) throw new Error(t('date_fix', { field: labels.fromDay }));
  if (w.toDay === null) throw new Error(t('date_fix', { field: labels.toDay }));
  return {
    fromDay: w.fromDay || null,
    toDay: w.toDay || null,
    weekdays: w.weekdays,
    fromTime: w.fromTime.trim() || null,
    toTime: w.toTime.trim() || null,
  };
}

/** A window in words: the days, the weekdays and the hours; „увек“ when it has none. */
function windowText(t: ManagerT, lang: Language, v: PriceListView | PromotionView): string {
  const names = weekdayNames(lang);
  const parts = [
    v.fromDay || v.toDay
      ? `${v.fromDay ? formatDay(v.fromDay, lang) : '…'} – ${v.toDay ? formatDay(v.toDay, lang) : '…'}`
      : null,
    v.weekdays.length > 0 ? v.weekdays.map((d) => names[d - 1]).join(', ') : null,
    v.fromTime && v.toTime ? `${v.fromTime}–${v.toTime}` : null,
  ].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(' · ') : t('prices_window_always');
}

/** The window's fields of a list or promotion form: days, weekdays and hours. */
function WindowFields(props: {
  t: ManagerT;
  lang: Language;
  field: ApprovedField<string>;
  labels: Record<WindowField, string>;
  value: WindowForm;
  onChange: (w: WindowForm) => void;
  /** The days must be chosen (a promotion has a period). */
  required?: boolean;
}) {
  const { t, lang, field, labels, value, onChange } = props;
  const names = weekdayNames(lang);
  const day = (name: 'fromDay' | 'toDay') =>
    field(
      name,
      () => (
        <DateField
          t={t}
          lang={lang}
          label={labels[name]}
          value={value[name]}
          required={props.required === true}
          onChange={(d) => onChange({ ...value, [name]: d })}
        />
      ),
      true,
    );
  const time = (name: 'fromTime' | 'toTime') =>
    field(name, (p) => (
      <input
        size={6}
        autoComplete="off"
        value={value[name]}
        {...p}
        onChange={(e) => onChange({ ...value, [name]: e.target.value })}
      />
    ));
  return (
    <>
      {day('fromDay')}
      {day('toDay')}
      {field(
        'weekdays',
        (p) => (
          <fieldset className="mgr-weekdays" {...p}>
            <legend>{labels.weekdays}</legend>
            {names.map((n, i) => (
              <label key={n} className="mgr-check">
                <input
                  type="checkbox"
                  checked={value.weekdays.includes(i + 1)}
                  onChange={(e) =>
                    onChange({
                      ...value,
                      weekdays: e.target.checked
                        ? [...value.weekdays, i + 1].sort()
                        : value.weekdays.filter((d) => d !== i + 1),
                    })
                  }
                />
                {n}
              </label>
            ))}
          </fieldset>
        ),
        true,
      )}
      {time('fromTime')}
      {time('toTime')}
    </>
  );
}

/** Asks before a deletion (or a cancellation), with the manager's PIN where the command asks for it. */
function Confirm(props: {
  t: ManagerT;
  text: string;
  button: string;
  onConfirm: (pin: { managerPin?: string }) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = props;
  const [pin, setPin] = useState('');
  const [error, busy, run] = useAction();
  return (
    <Modal title={t('prices_confirm_title')} onClose={props.onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await props.onConfirm(pinOf(pin));
            props.onClose();
          });
        }}
      >
        <p>{props.text}</p>
        <PinInput selfApproves t={t} value={pin} onChange={setPin} />
        <Alert text={error} />
        <div className="dialog-buttons">
          <button type="button" data-close onClick={props.onClose}>
            {t('cancel')}
          </button>
          <button type="submit" className="danger" disabled={busy}>
            {props.button}
          </button>
        </div>
      </form>
    </Modal>
  );
}

type Confirmation = { text: string; button: string; action: (pin: { managerPin?: string }) => Promise<void> };

/** Where a rule was set: a badge „хаб“ or „каса“ (docs/prices.md „At the hub“). */
function SourceBadge(props: { t: ManagerT; fromHub: boolean }) {
  const { t } = props;
  return (
    <span className={props.fromHub ? 'mgr-badge mgr-badge-hub' : 'mgr-badge'}>
      {t(props.fromHub ? 'prices_source_hub' : 'prices_source_till')}
    </span>
  );
}

/** In place of a hub rule's buttons: why the till does not change it (the hub owns it). */
function HubOwned(props: { t: ManagerT; name: string }) {
  return (
    <span className="mgr-hint" role="note" aria-label={props.t('prices_hub_readonly_named', { name: props.name })}>
      {props.t('prices_hub_readonly')}
    </span>
  );
}

/** A row's „Измени“ and „Обриши“ buttons, named by the row. */
function RowActions(props: { t: ManagerT; name: string; busy: boolean; onEdit: () => void; onDelete: () => void }) {
  const { t, name } = props;
  return (
    <div className="mgr-actions">
      <button type="button" disabled={props.busy} aria-label={t('prices_edit', { name })} onClick={props.onEdit}>
        {t('prices_edit_short')}
      </button>
      <button
        type="button"
        className="danger"
        disabled={props.busy}
        aria-label={t('prices_delete', { name })}
        onClick={props.onDelete}
      >
        {t('prices_delete_short')}
      </button>
    </div>
  );
}

export function PricesTab(props: TabProps) {
  const { api, t } = props;
  const [overview, setOverview] = useState<PricesOverview | null>(null);
  const [groups, setGroups] = useState<ProductGroup[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirmation | null>(null);
  const [error, runner] = useRunner(t);
  const { run } = runner;
  const load = async () => setOverview(await call(api['prices.overview']({})));
  useEffect(() => {
    void run(async () => {
      await load();
      setGroups(await call(api['catalog.groups']({})));
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const done = async (text: string) => {
    await load();
    setNote(text);
  };
  const shared = { ...props, runner, groups, done, ask: setConfirm };
  return (
    <div className="mgr-tab mgr-prices">
      <h3>{t('prices_title')}</h3>
      <p className="mgr-hint">{t('prices_intro')}</p>
      <NoteAndAlert note={note} error={error} />
      <NowSection {...props} overview={overview} />
      <ListsSection {...shared} lists={overview?.lists ?? []} />
      <PromotionsSection {...shared} promotions={overview?.promotions ?? []} />
      <ScheduledSection {...shared} scheduled={overview?.scheduled ?? []} />
      {confirm && (
        <Confirm
          t={t}
          text={confirm.text}
          button={confirm.button}
          onConfirm={confirm.action}
          onClose={() => setConfirm(null)}
        />
      )}
    </div>
  );
}

interface SectionProps extends TabProps {
  runner: Runner;
  groups: ProductGroup[];
  done: (note: string) => Promise<void>;
  ask: (c: Confirmation) => void;
}

/** „На снази сада и следеће“: a product's price now, what gives it, and the next changes. */
function NowSection(props: TabProps & { overview: PricesOverview | null }) {
  const { api, t, lang, overview } = props;
  const [query, setQuery] = useState('');
  const [pib, setPib] = useState('');
  const [found, setFound] = useState<{ product: ProductView; priced: PricedLineView } | null>(null);
  const [error, busy, run] = useAction();
  const show = () =>
    run(async () => {
      setFound(null);
      const page = await call(api['catalog.list']({ query: query.trim(), limit: 5 }));
      const product = page.products.find((p) => p.code === query.trim()) ?? page.products[0];
      if (!product) throw new Error(t('prices_not_found', { query: query.trim() }));
      const [priced] = await call(
        api['prices.quote']({
          lines: [{ code: product.code, quantity: 1 }],
          ...(pib.trim() ? { buyerId: `10:${pib.trim()}` } : {}),
        }),
      );
      if (priced) setFound({ product, priced });
    });
  const next = found && overview ? nextFor(t, overview, found.product) : [];
  return (
    <section aria-label={t('prices_now_title')}>
      <h4>{t('prices_now_title')}</h4>
      <form
        className="mgr-row"
        aria-label={t('prices_now_title')}
        onSubmit={(e) => {
          e.preventDefault();
          void show();
        }}
      >
        <Field label={t('prices_now_query')}>
          <input value={query} autoComplete="off" onChange={(e) => setQuery(e.target.value)} />
        </Field>
        <Field label={t('prices_now_buyer')}>
          <input value={pib} inputMode="numeric" size={11} onChange={(e) => setPib(e.target.value)} />
        </Field>
        <button type="submit" disabled={busy || query.trim() === ''}>
          {t('prices_now_show')}
        </button>
      </form>
      <Alert text={error} />
      {found && (
        <dl className="mgr-prices-now" aria-label={t('prices_now_of', { name: found.product.name })}>
          <div>
            <dt>{t('prices_now_product')}</dt>
            <dd>
              {found.product.name} ({found.product.code})
            </dd>
          </div>
          <div>
            <dt>{t('prices_now_regular')}</dt>
            <dd>{formatRsd(found.priced.regularPara)}</dd>
          </div>
          <div>
            <dt>{t('prices_now_price')}</dt>
            <dd data-testid="prices-now-price">{formatRsd(found.priced.unitPara)}</dd>
          </div>
          <div>
            <dt>{t('prices_now_by')}</dt>
            <dd data-testid="prices-now-rule">
              {found.priced.rule
                ? t(found.priced.rule.kind === 'list' ? 'prices_by_list' : 'prices_by_promotion', {
                    name: found.priced.rule.name,
                  })
                : t('prices_by_none')}
            </dd>
          </div>
          <div>
            <dt>{t('prices_now_next')}</dt>
            <dd>
              {next.length === 0 ? (
                t('prices_now_no_next')
              ) : (
                <ul>
                  {next.map((n) => (
                    <li key={`${n.at}-${n.text}`}>
                      {formatMoment(n.at, lang)}: {n.text}
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
        </dl>
      )}
      {overview && overview.next.length > 0 && (
        <MgrTable label={t('prices_next_all')} headers={[t('prices_col_when'), t('prices_col_what')]}>
          {overview.next.map((n) => (
            <tr key={`${n.at}-${n.what}-${n.name}`}>
              <td>{formatMoment(n.at, lang)}</td>
              <td>{t(`prices_next_${n.what}` as ManagerText, { name: n.name })}</td>
            </tr>
          ))}
        </MgrTable>
      )}
    </section>
  );
}

/** The next changes of one product: its scheduled prices, and the lists and promotions on it starting or ending. */
function nextFor(t: ManagerT, o: PricesOverview, p: ProductView): { at: string; text: string }[] {
  const out: { at: string; text: string }[] = [];
  for (const s of o.scheduled)
    if (s.state === 'pending' && s.code === p.code)
      out.push({ at: s.at, text: t('prices_next_price', { price: formatRsd(s.pricePara) }) });
  const rules = [
    ...o.promotions.filter((x) => x.code === p.code || (x.group !== null && x.group === p.group)),
    ...o.lists.filter(
      (l) =>
        l.items.some((i) => i.code === p.code) ||
        (l.rulePercentBp !== null && (l.ruleGroup === null || l.ruleGroup === p.group)),
    ),
  ];
  for (const r of rules)
    for (const n of o.next)
      if (n.name === r.name && n.what !== 'scheduled')
        out.push({ at: n.at, text: t(`prices_next_${n.what}` as ManagerText, { name: n.name }) });
  return out.sort((a, b) => a.at.localeCompare(b.at));
}

/** A new list's or promotion's shared part: no name, priority 1, no window. */
const NEW_RULE: RuleForm = { ...NO_WINDOW, name: '', priority: '1' };
/** The shared part of a stored list's or promotion's form. */
const ruleFormOf = (v: PriceListView | PromotionView): RuleForm => ({
  ...windowOfView(v),
  id: v.id,
  name: v.name,
  priority: String(v.priority),
});

interface ListForm extends RuleForm {
  scope: PriceListView['scope'];
  buyerPib: string;
  items: { code: string; price: string }[];
  ruleGroup: string;
  rulePercent: string;
}
const NEW_LIST: ListForm = {
  ...NEW_RULE,
  scope: 'shop',
  buyerPib: '',
  items: [],
  ruleGroup: '',
  rulePercent: '',
};

function listForm(l: PriceListView): ListForm {
  return {
    ...ruleFormOf(l),
    scope: l.scope,
    buyerPib: l.buyerPib ?? '',
    items: l.items.map((i) => ({ code: i.code, price: moneyText(i.pricePara) })),
    ruleGroup: l.ruleGroup ?? '',
    rulePercent: percentText(l.rulePercentBp),
  };
}

/** The window's labels, shared by the list and promotion forms. */
function windowLabels(t: ManagerT): Record<WindowField, string> {
  return {
    fromDay: t('prices_f_from_day'),
    toDay: t('prices_f_to_day'),
    weekdays: t('prices_f_weekdays'),
    fromTime: t('prices_f_from_time'),
    toTime: t('prices_f_to_time'),
  };
}

/** The group choice of a rule or a promotion. */
function GroupSelect(props: {
  groups: ProductGroup[];
  value: string;
  none: string;
  onChange: (v: string) => void;
  errorProps: object;
}) {
  return (
    <select value={props.value} {...props.errorProps} onChange={(e) => props.onChange(e.target.value)}>
      <option value="">{props.none}</option>
      {props.groups.map((g) => (
        <option key={g.name} value={g.name}>
          {g.name}
        </option>
      ))}
    </select>
  );
}

/** What a list's and a promotion's form share: a name, a priority and a window. */
interface RuleForm extends WindowForm {
  id?: number;
  name: string;
  priority: string;
}
type RuleField = 'name' | 'priority' | WindowField;

/**
 * A section of rules (the price lists, the promotions): their table (name, the kind's own columns, window,
 * priority, in force now, edit and delete after a confirmation) and the form to add or edit one (name, priority,
 * the kind's own fields, the window), every refusal at its field.
 */
function RuleSection<R extends PriceListView | PromotionView, F extends RuleForm, L extends string>(
  props: SectionProps & {
    rows: R[];
    /** Its texts are named after it: `prices_<kind>s`, `_none`, `prices_<kind>_form`, … `prices_confirm_<kind>`. */
    kind: 'list' | 'promotion';
    headers: string[];
    cells: (r: R) => ReactNode[];
    empty: F;
    toForm: (r: R) => F;
    remove: (id: number, pin: { managerPin?: string }) => Promise<unknown>;
    idPrefix: string;
    labels: Record<L, string>;
    fieldOf?: (path: string) => string | undefined;
    hint?: string;
    requiredDays?: boolean;
    put: (
      form: F,
      common: { managerPin?: string; id?: number; name: string; priority: number } & ReturnType<typeof windowInput>,
    ) => Promise<{ name: string }>;
    fields: (field: ApprovedField<L | RuleField>, form: F, setForm: (f: F) => void) => ReactNode;
  },
) {
  const { t, lang, runner, kind } = props;
  const { busy } = runner;
  const [form, setForm] = useState<F>(props.empty);
  const wl = windowLabels(t);
  const labels = { name: t('prices_f_name'), priority: t('prices_f_priority'), ...wl, ...props.labels } as Record<
    L | RuleField,
    string
  >;
  return (
    <section aria-label={t(`prices_${kind}s`)}>
      <h4>{t(`prices_${kind}s`)}</h4>
      {props.rows.length === 0 ? (
        <p>{t(`prices_${kind}s_none`)}</p>
      ) : (
        <MgrTable
          label={t(`prices_${kind}s`)}
          scroll
          headers={[
            t('prices_col_name'),
            ...props.headers,
            t('prices_col_window'),
            t('prices_col_priority'),
            t('prices_col_state'),
            t('prices_col_source'),
            t('prices_col_actions'),
          ]}
        >
          {props.rows.map((r) => (
            <tr key={r.id}>
              <td>{r.name}</td>
              {props.cells(r).map((c, i) => (
                <td key={i}>{c}</td>
              ))}
              <td>{windowText(t, lang, r)}</td>
              <td className="mgr-num">{r.priority}</td>
              <td>{t(r.inForce ? 'prices_in_force' : 'prices_not_in_force')}</td>
              <td>
                <SourceBadge t={t} fromHub={r.fromHub} />
              </td>
              <td>
                {r.fromHub ? (
                  <HubOwned t={t} name={r.name} />
                ) : (
                  <RowActions
                    t={t}
                    name={r.name}
                    busy={busy}
                    onEdit={() => setForm(props.toForm(r))}
                    onDelete={() =>
                      props.ask({
                        text: t(`prices_confirm_${kind}`, { name: r.name }),
                        button: t('prices_delete_short'),
                        action: async (pin) => {
                          await props.remove(r.id, pin);
                          await props.done(t('prices_deleted', { name: r.name }));
                        },
                      })
                    }
                  />
                )}
              </td>
            </tr>
          ))}
        </MgrTable>
      )}
      <h5>{form.id === undefined ? t(`prices_${kind}_new`) : t(`prices_${kind}_editing`, { name: form.name })}</h5>
      {props.hint && <p className="mgr-hint">{props.hint}</p>}
      <ApprovedForm
        runner={runner}
        selfApproves
        label={t(`prices_${kind}_form`)}
        button={t(`prices_${kind}_save`)}
        idPrefix={props.idPrefix}
        labels={labels}
        {...(props.fieldOf ? { fieldOf: props.fieldOf } : {})}
        onSubmit={async (managerPin) => {
          const saved = await props.put(form, {
            ...pinOf(managerPin),
            ...(form.id !== undefined ? { id: form.id } : {}),
            name: form.name,
            priority: whole(form.priority) ?? Number.NaN,
            ...windowInput(t, form, wl),
          });
          setForm(props.empty);
          await props.done(t(`prices_${kind}_saved`, { name: saved.name }));
        }}
      >
        {(field) => (
          <>
            {formInput(field, form, setForm, 'name')}
            {formInput(field, form, setForm, 'priority', { size: 5, inputMode: 'numeric' })}
            {props.fields(field, form, setForm)}
            <WindowFields
              t={t}
              lang={lang}
              required={props.requiredDays === true}
              field={field as ApprovedField<string>}
              labels={wl}
              value={form}
              onChange={(w) => setForm({ ...form, ...w })}
            />
          </>
        )}
      </ApprovedForm>
      {form.id !== undefined && (
        <button type="button" onClick={() => setForm(props.empty)}>
          {t('prices_form_new')}
        </button>
      )}
    </section>
  );
}

function ListsSection(props: SectionProps & { lists: PriceListView[] }) {
  const { api, t, groups } = props;
  const scopeText = (l: PriceListView) =>
    l.scope === 'buyer' ? t('prices_scope_buyer_pib', { pib: l.buyerPib ?? '' }) : t(`prices_scope_${l.scope}`);
  const content = (l: PriceListView) =>
    [
      l.items.length > 0 ? t('prices_content_items', { count: l.items.length }) : null,
      l.rulePercentBp !== null
        ? t(l.ruleGroup ? 'prices_content_rule' : 'prices_content_rule_all', {
            percent: percentText(l.rulePercentBp),
            group: l.ruleGroup ?? '',
          })
        : null,
    ]
      .filter(Boolean)
      .join(' · ');
  const labels = {
    scope: t('prices_f_scope'),
    buyerPib: t('prices_f_pib'),
    items: t('prices_f_items'),
    ruleGroup: t('prices_f_rule_group'),
    rulePercent: t('prices_f_rule_percent'),
  };
  return (
    <RuleSection
      {...props}
      rows={props.lists}
      kind="list"
      headers={[t('prices_col_scope'), t('prices_col_content')]}
      cells={(l) => [scopeText(l), content(l)]}
      empty={NEW_LIST}
      toForm={listForm}
      remove={(id, pin) => call(api['prices.listDelete']({ ...pin, id }))}
      idPrefix="price-list"
      labels={labels}
      fieldOf={(path) => (path.startsWith('items.') ? 'items' : undefined)}
      put={(form, common) =>
        call(
          api['prices.listPut']({
            ...common,
            scope: form.scope,
            buyerPib: form.scope === 'buyer' ? form.buyerPib : null,
            items: form.items.map((i) => ({ code: i.code.trim(), price: money(i.price) ?? Number.NaN })),
            ruleGroup: form.ruleGroup || null,
            rulePercent: percent(form.rulePercent),
          }),
        )
      }
      fields={(field, form, setForm) => {
        const setItem = (i: number, item: { code: string; price: string }) =>
          setForm({ ...form, items: form.items.map((x, k) => (k === i ? item : x)) });
        return (
          <>
            {field('scope', (p) => (
              <select
                value={form.scope}
                {...p}
                onChange={(e) => setForm({ ...form, scope: e.target.value as ListForm['scope'] })}
              >
                {(['shop', 'chain', 'buyer'] as const).map((s) => (
                  <option key={s} value={s}>
                    {t(`prices_scope_${s}`)}
                  </option>
                ))}
              </select>
            ))}
            {form.scope === 'buyer' && formInput(field, form, setForm, 'buyerPib', { size: 11, inputMode: 'numeric' })}
            {field(
              'items',
              (p) => (
                <fieldset className="mgr-price-items" {...p}>
                  <legend>{labels.items}</legend>
                  {form.items.map((item, i) => (
                    <div key={i} className="mgr-row">
                      <Field label={t('prices_f_item_code', { n: i + 1 })}>
                        <input
                          size={8}
                          value={item.code}
                          onChange={(e) => setItem(i, { ...item, code: e.target.value })}
                        />
                      </Field>
                      <Field label={t('prices_f_item_price', { n: i + 1 })}>
                        <input
                          size={9}
                          inputMode="decimal"
                          value={item.price}
                          onChange={(e) => setItem(i, { ...item, price: e.target.value })}
                        />
                      </Field>
                      <button
                        type="button"
                        aria-label={t('prices_f_item_remove', { n: i + 1 })}
                        onClick={() => setForm({ ...form, items: form.items.filter((_, k) => k !== i) })}
                      >
                        ✕
                      </button>
                    </div>
                  ))}
                  <button
                    type="button"
                    onClick={() => setForm({ ...form, items: [...form.items, { code: '', price: '' }] })}
                  >
                    {t('prices_f_item_add')}
                  </button>
                  <PriceItemsCsv
                    lang={props.lang}
                    label={t('prices_f_import')}
                    onItems={(read) =>
                      setForm({
                        ...form,
                        items: read.items.map((i) => ({ code: i.code, price: moneyText(i.pricePara) })),
                        ...(read.fromDay ? { fromDay: read.fromDay } : {}),
                        ...(read.toDay ? { toDay: read.toDay } : {}),
                      })
                    }
                  />
                </fieldset>
              ),
              true,
            )}
            {field('ruleGroup', (p) => (
              <GroupSelect
                groups={groups}
                value={form.ruleGroup}
                none={t('prices_f_all_products')}
                errorProps={p}
                onChange={(v) => setForm({ ...form, ruleGroup: v })}
              />
            ))}
            {formInput(field, form, setForm, 'rulePercent', { size: 6, inputMode: 'decimal' })}
          </>
        );
      }}
    />
  );
}

interface PromotionForm extends RuleForm {
  on: 'code' | 'group';
  code: string;
  group: string;
  kind: PromotionKind;
  price: string;
  percent: string;
  buy: string;
  pay: string;
  nth: string;
  minQuantity: string;
}
const NEW_PROMOTION: PromotionForm = {
  ...NEW_RULE,
  on: 'code',
  code: '',
  group: '',
  kind: 'price',
  price: '',
  percent: '',
  buy: '3',
  pay: '2',
  nth: '2',
  minQuantity: '',
};

function promotionForm(p: PromotionView): PromotionForm {
  return {
    ...ruleFormOf(p),
    on: p.code !== null ? 'code' : 'group',
    code: p.code ?? '',
    group: p.group ?? '',
    kind: p.kind,
    price: moneyText(p.pricePara),
    percent: percentText(p.percentBp),
    buy: p.buy === null ? '' : String(p.buy),
    pay: p.pay === null ? '' : String(p.pay),
    nth: p.nth === null ? '' : String(p.nth),
    minQuantity: p.minQtyMilli === null ? '' : formatQuantity(p.minQtyMilli),
  };
}

/** A promotion's deal in words: „59,99“, „−20 %“, „3 за цену 2“, „сваки 2. комад −50 %“, and its minimum. */
function dealText(t: ManagerT, p: PromotionView): string {
  const deal =
    p.kind === 'price'
      ? formatRsd(p.pricePara ?? 0)
      : p.kind === 'percent'
        ? t('prices_deal_percent', { percent: percentText(p.percentBp) })
        : p.kind === 'multibuy'
          ? t('prices_deal_multibuy', { buy: p.buy ?? 0, pay: p.pay ?? 0 })
          : t('prices_deal_nth', { nth: p.nth ?? 0, percent: percentText(p.percentBp) });
  return p.minQtyMilli !== null ? `${deal} · ${t('prices_deal_min', { qty: formatQuantity(p.minQtyMilli) })}` : deal;
}

function PromotionsSection(props: SectionProps & { promotions: PromotionView[] }) {
  const { api, t, groups } = props;
  const labels = {
    code: t('prices_f_code'),
    group: t('prices_f_group'),
    kind: t('prices_f_kind'),
    price: t('prices_f_price'),
    percent: t('prices_f_percent'),
    buy: t('prices_f_buy'),
    pay: t('prices_f_pay'),
    nth: t('prices_f_nth'),
    minQuantity: t('prices_f_min'),
  };
  const target = (p: PromotionView) =>
    p.code !== null ? (p.productName ?? p.code) : t('prices_target_group', { group: p.group ?? '' });
  return (
    <RuleSection
      {...props}
      rows={props.promotions}
      kind="promotion"
      headers={[t('prices_col_target'), t('prices_col_deal')]}
      cells={(p) => [target(p), dealText(t, p)]}
      empty={NEW_PROMOTION}
      toForm={promotionForm}
      remove={(id, pin) => call(api['prices.promotionDelete']({ ...pin, id }))}
      idPrefix="promotion"
      labels={labels}
      hint={t('prices_promotion_31')}
      requiredDays
      put={(form, common) => {
        const k = form.kind;
        return call(
          api['prices.promotionPut']({
            ...common,
            code: form.on === 'code' ? form.code.trim() : null,
            group: form.on === 'group' ? form.group || null : null,
            kind: k,
            price: k === 'price' ? money(form.price) : null,
            percent: k === 'percent' || k === 'nth' ? percent(form.percent) : null,
            buy: k === 'multibuy' ? whole(form.buy) : null,
            pay: k === 'multibuy' ? whole(form.pay) : null,
            nth: k === 'nth' ? whole(form.nth) : null,
            minQuantity: form.minQuantity.trim()
              ? milliToDecimal(parseQuantityInput(form.minQuantity) ?? Number.NaN)
              : null,
            fromDay: form.fromDay ?? '',
            toDay: form.toDay ?? '',
          }),
        );
      }}
      fields={(field, form, setForm) => {
        const num = (name: 'price' | 'percent' | 'buy' | 'pay' | 'nth' | 'minQuantity') =>
          formInput(field, form, setForm, name, { size: 7, inputMode: 'decimal' });
        return (
          <>
            <ChoiceField
              label={t('prices_f_on')}
              value={form.on}
              options={{ code: t('prices_on_product'), group: t('prices_on_group') }}
              onChange={(on) => setForm({ ...form, on })}
            />
            {form.on === 'code'
              ? formInput(field, form, setForm, 'code', { size: 8 })
              : field('group', (p) => (
                  <GroupSelect
                    groups={groups}
                    value={form.group}
                    none="—"
                    errorProps={p}
                    onChange={(v) => setForm({ ...form, group: v })}
                  />
                ))}
            {field('kind', (p) => (
              <select
                value={form.kind}
                {...p}
                onChange={(e) => setForm({ ...form, kind: e.target.value as PromotionKind })}
              >
                {PROMOTION_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {t(`prices_kind_${k}`)}
                  </option>
                ))}
              </select>
            ))}
            {form.kind === 'price' && num('price')}
            {form.kind === 'multibuy' && num('buy')}
            {form.kind === 'multibuy' && num('pay')}
            {form.kind === 'nth' && num('nth')}
            {(form.kind === 'percent' || form.kind === 'nth') && num('percent')}
            {num('minQuantity')}
          </>
        );
      }}
    />
  );
}

function ScheduledSection(props: SectionProps & { scheduled: ScheduledPriceView[] }) {
  const { api, t, lang, runner } = props;
  const { busy } = runner;
  const [form, setForm] = useState<{ code: string; price: string; day: string | null; time: string }>({
    code: '',
    price: '',
    day: null,
    time: '',
  });
  const labels = {
    code: t('prices_f_code'),
    price: t('prices_f_new_price'),
    at: t('prices_f_at_day'),
  };
  const state = (s: ScheduledPriceView) =>
    s.state === 'applied' && s.appliedAt
      ? t('prices_sched_applied', { at: formatMoment(s.appliedAt, lang) })
      : t(`prices_sched_${s.state}` as ManagerText);
  return (
    <section aria-label={t('prices_scheduled')}>
      <h4>{t('prices_scheduled')}</h4>
      {props.scheduled.length === 0 ? (
        <p>{t('prices_scheduled_none')}</p>
      ) : (
        <MgrTable
          label={t('prices_scheduled')}
          scroll
          headers={[
            t('prices_col_product'),
            t('prices_col_old_price'),
            t('prices_col_new_price'),
            t('prices_col_at'),
            t('prices_col_state'),
            t('prices_col_source'),
            t('prices_col_actions'),
          ]}
        >
          {props.scheduled.map((s) => {
            const name = s.name ?? s.code;
            const at = formatMoment(s.at, lang);
            return (
              <tr key={s.id}>
                <td>{name}</td>
                <td className="mgr-num">{s.oldPricePara === null ? '—' : formatRsd(s.oldPricePara)}</td>
                <td className="mgr-num">{formatRsd(s.pricePara)}</td>
                <td>{at}</td>
                <td>{state(s)}</td>
                <td>
                  <SourceBadge t={t} fromHub={s.fromHub} />
                </td>
                <td>
                  {s.state === 'pending' && s.fromHub && <HubOwned t={t} name={name} />}
                  {s.state === 'pending' && !s.fromHub && (
                    <button
                      type="button"
                      className="danger"
                      disabled={busy}
                      aria-label={t('prices_sched_cancel', { name, at })}
                      onClick={() =>
                        props.ask({
                          text: t('prices_confirm_sched', { name, at, price: formatRsd(s.pricePara) }),
                          button: t('prices_sched_cancel_short'),
                          action: async (pin) => {
                            await call(api['prices.scheduleCancel']({ ...pin, id: s.id }));
                            await props.done(t('prices_sched_cancelled_note', { name, at }));
                          },
                        })
                      }
                    >
                      {t('prices_sched_cancel_short')}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </MgrTable>
      )}
      <h5>{t('prices_sched_new')}</h5>
      <ApprovedForm
        runner={runner}
        selfApproves
        label={t('prices_sched_new')}
        button={t('prices_sched_save')}
        idPrefix="scheduled"
        labels={labels}
        onSubmit={async (managerPin) => {
          if (!form.day) throw new Error(t('date_fix', { field: labels.at }));
          const time = /^([01]\d|2[0-3]):[0-5]\d$/.test(form.time.trim()) ? form.time.trim() : null;
          if (time === null) throw new Error(t('prices_time_fix', { field: t('prices_f_at_time') }));
          const saved = await call(
            api['prices.schedule']({
              ...pinOf(managerPin),
              code: form.code.trim(),
              price: money(form.price) ?? Number.NaN,
              at: shopInstant(form.day, time),
            }),
          );
          setForm({ code: '', price: '', day: null, time: '' });
          await props.done(
            t('prices_sched_saved', { name: saved.name ?? saved.code, at: formatMoment(saved.at, lang) }),
          );
        }}
      >
        {(field) => (
          <>
            {formInput(field, form, setForm, 'code', { size: 8 })}
            {formInput(field, form, setForm, 'price', { size: 9, inputMode: 'decimal' })}
            {field(
              'at',
              () => (
                <DateField
                  t={t}
                  lang={lang}
                  required
                  label={labels.at}
                  value={form.day}
                  onChange={(day) => setForm({ ...form, day })}
                />
              ),
              true,
            )}
            <Field label={t('prices_f_at_time')}>
              <input size={6} value={form.time} onChange={(e) => setForm({ ...form, time: e.target.value })} />
            </Field>
          </>
        )}
      </ApprovedForm>
    </section>
  );
}
