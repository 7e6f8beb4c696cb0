/**
 * The hub UI's stock-taking (попис, docs/goods.md "Stock-taking at the hub"), under Роба: a hub manager starts a
 * count of the shop or of chosen groups, enters counts (a code or a scanned barcode; a typed quantity replaces what
 * was counted, a scan without one adds one, as at the till) or a handheld's CSV, sees the differences at retail and
 * purchase value, and posts or cancels it; each count's A4 list. The words are the till's (Менаџер → Роба →
 * Пописи), and a refusal is said under its field with the till's own message for its code.
 */
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import type { CountSummary } from '../../../shared/contract/goods.ts';
import type { HubCountList, HubCountView } from '../../../shared/hub/count-protocol.ts';
import { hasMessage, message } from '../../../shared/messages.ts';
import { parseQuantityInput } from '../../../shared/money.ts';
import { CheckedField, FieldError, NoteAndAlert } from '../ui/forms.tsx';
import {
  CountCsvButton,
  CountLinesTable,
  CountScope,
  CountsList,
  CountTotals,
  openCountTitle,
} from '../manager/CountTables.tsx';
import { mt, type ManagerT, type ManagerText } from '../manager/i18n.ts';
import { download, HubCallError, hubApi } from './api.ts';
import type { HubLang } from './i18n.ts';
import { useHubRead } from './useHubRead.ts';

/** Errors by the form's field: `groups`, `code`, `quantity`, `csv`, or '' (the section's own). */
type Errors = Readonly<Record<string, string>>;

export function HubCount(props: {
  lang: HubLang;
  token: string;
  /** A refusal the till's messages have no words for, named by its field's label (HubApp.tsx `hubErrorText`). */
  errorText: (err: unknown, labels: Readonly<Record<string, string>>) => string;
  /** Something was posted: the stock, documents and KEP beside this section read again. */
  changed: () => void;
}) {
  const { lang, token, errorText, changed } = props;
  const t: ManagerT = useCallback((key, params) => mt(lang, key, params), [lang]);
  const api = useMemo(() => hubApi(token), [token]);
  const [list, setList] = useState<HubCountList>({ counts: [], groups: [] });
  const [open, setOpen] = useState<HubCountView | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [code, setCode] = useState('');
  const [quantity, setQuantity] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  // The key and its parameters, not the text: the note follows a change of language.
  const [note, setNote] = useState<readonly [ManagerText, Record<string, string | number>] | null>(null);
  const [busy, setBusy] = useState(false);

  // Which open count is shown (the newest when none is chosen), and a counter to read the counts again.
  const [keep, setKeep] = useState<number | null>(null);
  const [version, setVersion] = useState(0);
  const reload = (id: number | null = null) => {
    setKeep(id);
    setVersion((v) => v + 1);
  };
  useHubRead(
    async () => {
      const a = hubApi(token);
      const l = await a.call('goodsCounts', {});
      const current =
        l.counts.find((c) => c.id === keep && c.state === 'open') ?? l.counts.find((c) => c.state === 'open');
      return [l, current ? await a.call('goodsCount', { countId: current.id }) : null] as const;
    },
    ([l, view]) => {
      setList(l);
      setOpen(view);
    },
    (err) => setErrors({ '': errorText(err, {}) }),
    [token, keep, version, errorText],
  );

  /** A refusal under the field it names: the hub's field path, its last word (`lines.0.code` → `code`). */
  const refusal = (err: unknown, values: Readonly<Record<string, string>>): Errors => {
    const labels: Record<string, string> = {
      groups: t('goods_count_scope'),
      code: t('goods_code_or_barcode'),
      qtyMilli: t('goods_counted'),
      csv: t('goods_count_csv'),
      countId: t('goods_counts'),
    };
    if (!(err instanceof HubCallError)) return { '': errorText(err, labels) };
    const wire = (err.field ?? '').split('.').filter((s) => !/^\d+$/.test(s));
    const field = wire[0] === 'lines' ? (wire[1] ?? '') : (wire[0] ?? '');
    const at = field === 'qtyMilli' ? 'quantity' : field === 'countId' ? '' : field;
    const code = err.code ?? '';
    const text =
      code !== '' && hasMessage(code)
        ? message(lang, code, { value: values[at] ?? '', ...err.params, field: labels[field] ?? '' })
        : errorText(err, labels);
    return { [at]: text };
  };

  const act = async (work: () => Promise<void>, values: Readonly<Record<string, string>> = {}) => {
    setBusy(true);
    setErrors({});
    setNote(null);
    try {
      await work();
    } catch (err) {
      setErrors(refusal(err, values));
    } finally {
      setBusy(false);
    }
  };

  const start = (e: FormEvent) => {
    e.preventDefault();
    void act(async () => {
      const c = await api.call('goodsCountStart', { groups: chosen });
      setNote(['goods_count_started', { number: c.number }]);
      setChosen([]);
      reload(c.id);
    });
  };
  const enter = (e: FormEvent) => {
    e.preventDefault();
    if (!open) return;
    // A scan (or a code with no quantity) adds one; a typed quantity replaces what was counted.
    const typed = quantity.trim();
    const milli = typed ? parseQuantityInput(typed) : 1000;
    if (milli === null || milli < 0)
      return setErrors({ quantity: t('goods_number_needed', { field: t('goods_counted') }) });
    const what = code.trim();
    void act(
      async () => {
        setOpen(
          await api.call('goodsCountEnter', {
            countId: open.id,
            lines: [{ code: what, qtyMilli: milli, add: !typed }],
          }),
        );
        setNote(['goods_count_entered', { code: what }]);
        setCode('');
        setQuantity('');
        setList(await api.call('goodsCounts', {}));
      },
      { code: what, quantity: typed },
    );
  };
  const importCsv = (file: File | undefined) => {
    if (!open || !file) return;
    void act(async () => {
      setOpen(await api.call('goodsCountImport', { countId: open.id, csv: await file.text() }));
      setNote(['goods_count_imported', { name: file.name }]);
      setList(await api.call('goodsCounts', {}));
    });
  };
  const close = (kind: 'post' | 'cancel') => {
    if (!open) return;
    void act(async () => {
      const c = await api.call(kind === 'post' ? 'goodsCountPost' : 'goodsCountCancel', { countId: open.id });
      setNote([kind === 'post' ? 'goods_count_posted' : 'goods_count_cancelled', { number: c.number }]);
      reload();
      changed();
    });
  };
  const pdf = (c: CountSummary) =>
    void act(async () =>
      download(await api.call('goodsCountPdf', { countId: c.id, lang }), `popis-${c.number.replace('/', '-')}.pdf`),
    );
  const others = list.counts.filter((c) => c.state === 'open' && c.id !== open?.id);

  return (
    <section aria-label={t('goods_counts')}>
      <h2>{t('goods_counts')}</h2>
      <NoteAndAlert note={note && t(...note)} error={errors[''] ?? null} />
      <form onSubmit={start} aria-label={t('goods_count_start')} className="mgr-top" noValidate>
        <CountScope
          t={t}
          groups={list.groups}
          chosen={chosen}
          onChange={setChosen}
          className="mgr-row hub-count-groups"
          errorId={errors.groups ? 'hub-count-groups-error' : undefined}
        />
        <FieldError error={errors.groups} errorId="hub-count-groups-error" />
        <button type="submit" disabled={busy}>
          {chosen.length ? t('goods_count_start_groups') : t('goods_count_start_all')}
        </button>
      </form>
      {others.map((c) => (
        <button key={c.id} type="button" disabled={busy} onClick={() => reload(c.id)}>
          {openCountTitle(t, c)}
        </button>
      ))}
      {open && (
        <>
          <h3>{openCountTitle(t, open)}</h3>
          <form onSubmit={enter} aria-label={t('goods_count_enter')} className="mgr-row mgr-top" noValidate>
            <CheckedField label={t('goods_code_or_barcode')} error={errors.code} errorId="hub-count-code-error">
              <input
                value={code}
                onChange={(e) => setCode(e.target.value)}
                size={14}
                aria-invalid={errors.code ? true : undefined}
                aria-describedby={errors.code ? 'hub-count-code-error' : undefined}
              />
            </CheckedField>
            <CheckedField label={t('goods_counted')} error={errors.quantity} errorId="hub-count-quantity-error">
              <input
                value={quantity}
                onChange={(e) => setQuantity(e.target.value)}
                size={6}
                inputMode="decimal"
                aria-invalid={errors.quantity ? true : undefined}
                aria-describedby={errors.quantity ? 'hub-count-quantity-error' : undefined}
              />
            </CheckedField>
            <button type="submit" disabled={busy || !code.trim()}>
              {t('goods_count_enter')}
            </button>
            <CountCsvButton t={t} onFile={importCsv} {...(errors.csv ? { errorId: 'hub-count-csv-error' } : {})} />
            <FieldError error={errors.csv} errorId="hub-count-csv-error" />
          </form>
          <CountTotals t={t} view={open} />
          <CountLinesTable t={t} view={open} />
          <div className="mgr-row mgr-top" role="group" aria-label={t('goods_count_post_actions')}>
            <button type="button" disabled={busy} onClick={() => close('post')}>
              {t('goods_count_post')}
            </button>
            <button type="button" disabled={busy} onClick={() => close('cancel')}>
              {t('goods_count_cancel')}
            </button>
          </div>
        </>
      )}
      <CountsList
        t={t}
        lang={lang}
        counts={list.counts}
        actions={(c) => (
          <button type="button" disabled={busy} onClick={() => pdf(c)}>
            {t('goods_pdf_of', { number: c.number })}
          </button>
        )}
      />
    </section>
  );
}
