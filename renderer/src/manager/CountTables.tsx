/**
 * A stock-taking's (попис) tables, shown alike by the till's Менаџер → Роба → Пописи (GoodsTab.tsx) and the hub
 * UI's counts (hub-ui/HubCount.tsx): the totals line, the count's lines with the book at the start and at the
 * entry, what was counted and the difference (вишак / мањак) at retail price, and the list of counts.
 */
import type { ReactNode } from 'react';
import type { CountSummary, CountView } from '../../../shared/contract/goods.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatQuantity, formatRsd } from '../../../shared/money.ts';
import { formatMoment } from '../../../shared/i18n/time.ts';
import { ColumnTable } from './ColumnTable.tsx';
import type { ManagerT } from './i18n.ts';

/** A count's scope in words: its groups, or the whole shop. */
export const countScope = (t: ManagerT, c: Pick<CountSummary, 'groups'>): string =>
  c.groups ? c.groups.join(', ') : t('goods_count_whole');

/** An open count's title: its number and scope. */
export const openCountTitle = (t: ManagerT, c: Pick<CountSummary, 'number' | 'groups'>): string =>
  t('goods_count_open', { number: c.number, scope: countScope(t, c) });

/** How many lines are counted, and the surplus and shortage at retail and purchase value. */
export function CountTotals({ t, view }: { t: ManagerT; view: CountView }) {
  return (
    <p role="status">
      {t('goods_count_totals', {
        counted: view.countedCount,
        lines: view.lineCount,
        surplus: formatRsd(view.totals.surplusRetailPara),
        shortage: formatRsd(view.totals.shortageRetailPara),
        surplusPurchase: formatRsd(view.totals.surplusPurchasePara ?? 0),
        shortagePurchase: formatRsd(view.totals.shortagePurchasePara ?? 0),
      })}
    </p>
  );
}

/** A quantity not known yet (not counted, not entered) is a dash. */
export const quantityOrDash = (milli: number | null): string => (milli === null ? '—' : formatQuantity(milli));

/** The count's lines: book at the start and at the entry, counted, the difference and its retail value. */
export function CountLinesTable({ t, view }: { t: ManagerT; view: CountView }) {
  return (
    <ColumnTable
      scroll
      label={t('goods_count_lines')}
      rows={view.lines}
      rowKey={(l) => l.code}
      flagged={(l) => Boolean(l.differenceMilli)}
      columns={[
        { header: t('goods_code'), cell: (l) => l.code },
        { header: t('goods_name'), names: true, cell: (l) => l.name },
        { header: t('goods_count_book'), num: true, cell: (l) => formatQuantity(l.bookMilli) },
        { header: t('goods_count_book_entry'), num: true, cell: (l) => quantityOrDash(l.bookAtEntryMilli) },
        { header: t('goods_counted'), num: true, cell: (l) => quantityOrDash(l.countedMilli) },
        {
          header: t('goods_count_difference'),
          num: true,
          cell: (l) =>
            l.differenceMilli === null
              ? '—'
              : `${formatQuantity(l.differenceMilli)}${
                  l.differenceMilli > 0
                    ? ` (${t('goods_surplus')})`
                    : l.differenceMilli < 0
                      ? ` (${t('goods_shortage')})`
                      : ''
                }`,
        },
        {
          header: t('goods_count_diff_retail'),
          num: true,
          cell: (l) => (l.differenceMilli ? formatRsd(l.retailDiffPara) : '—'),
        },
      ]}
    />
  );
}

/** The counts, newest first: number, scope, state, start, how much is counted, and each one's actions. */
export function CountsList(props: {
  t: ManagerT;
  lang: Language;
  counts: readonly CountSummary[];
  actions: (c: CountSummary) => ReactNode;
}) {
  const { t, lang } = props;
  return (
    <ColumnTable
      label={t('goods_counts')}
      rows={props.counts}
      rowKey={(c) => c.id}
      columns={[
        { header: t('goods_number'), names: true, cell: (c) => c.number },
        { header: t('goods_count_scope'), cell: (c) => countScope(t, c) },
        { header: t('goods_state'), cell: (c) => t(`goods_count_state_${c.state}`) },
        { header: t('goods_count_started_at'), cell: (c) => formatMoment(c.startedAt, lang) },
        { header: t('goods_counted'), num: true, cell: (c) => `${c.countedCount} / ${c.lineCount}` },
        { header: '', cell: props.actions },
      ]}
    />
  );
}

/** The groups a new count takes (none ticked: the whole shop), as a row of checkboxes under its legend. */
export function CountScope(props: {
  t: ManagerT;
  groups: readonly string[];
  chosen: readonly string[];
  onChange: (chosen: string[]) => void;
  className?: string;
  /** The id of the refusal said under it, when there is one. */
  errorId?: string | undefined;
}) {
  const { chosen } = props;
  return (
    <fieldset
      className={props.className ?? 'mgr-row'}
      aria-invalid={props.errorId ? true : undefined}
      aria-describedby={props.errorId}
    >
      <legend>{props.t('goods_count_scope')}</legend>
      {props.groups.map((g) => (
        <label key={g}>
          <input
            type="checkbox"
            checked={chosen.includes(g)}
            onChange={(e) => props.onChange(e.target.checked ? [...chosen, g] : chosen.filter((x) => x !== g))}
          />{' '}
          {g}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * A handheld's CSV chosen through a labelled button in the UI's language (the browser's own file button speaks its
 * own language): the file is handed over once chosen, and the chooser emptied so the same file may be chosen again.
 */
export function CountCsvButton(props: { t: ManagerT; onFile: (file: File | undefined) => void; errorId?: string }) {
  return (
    <label className="mgr-file">
      {props.t('goods_count_csv')}
      <input
        type="file"
        className="visually-hidden"
        accept=".csv,.txt,text/csv,text/plain"
        aria-invalid={props.errorId ? true : undefined}
        aria-describedby={props.errorId}
        onChange={(e) => {
          props.onFile(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </label>
  );
}
