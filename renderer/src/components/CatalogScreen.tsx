import { useEffect, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogStats, ImportIssue } from '../../../shared/contract/catalog.ts';
import type { PosApi } from '../../../shared/contract/index.ts';
import { formatRsd } from '../../../shared/money.ts';
import { usePos, usePosPick } from '../context.ts';
import { ActionButton } from './SaleScreen.tsx';
import { Check } from './Check.tsx';
import { ProductsPanel } from './ProductsPanel.tsx';
import { ColumnHeads } from './HeadedTable.tsx';

function IssueTable(props: { title: string; issues: ImportIssue[] }) {
  const { t } = useTranslation();
  if (props.issues.length === 0) return null;
  return (
    <table className="issues" aria-label={props.title}>
      <caption>{props.title}</caption>
      <ColumnHeads names={[t('catalog.row'), t('catalog.field'), t('catalog.message')]} />
      <tbody>
        {props.issues.slice(0, 200).map((i, n) => (
          <tr key={n}>
            <td>{i.row}</td>
            <td>{i.field}</td>
            <td>{t(i.code, { ...i.params, defaultValue: i.message })}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * F8: the catalog — its size, flagged labels, CSV import with preview, the sample catalog, and the products
 * themselves (list, search, add, edit, delete: ProductsPanel).
 */
export function CatalogScreen(props: { api: PosApi }) {
  const { t } = useTranslation();
  const { setScreen, importCsv, loadSample, busy } = usePosPick('setScreen', 'importCsv', 'loadSample', 'busy');
  const result = usePos((s) => s.lastImport);
  const [csv, setCsv] = useState<string | null>(null);
  const [replace, setReplace] = useState(false);
  const [stats, setStats] = useState<CatalogStats | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    void props.api['catalog.stats']({}).then((r) => {
      if (live && r.ok) setStats(r.value);
    });
    return () => {
      live = false;
    };
    // An import (the sample, a CSV file) counts too: its approval may end after the button's promise did.
  }, [props.api, version, result]);
  // Layout effect: the keys work from the first frame the screen is shown (a fast double F12 is not lost).
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' || e.key === 'F8') {
        e.preventDefault();
        setScreen('sale');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setScreen]);
  return (
    <main className="catalog" aria-label={t('catalog.title')}>
      <h1>{t('catalog.title')}</h1>
      {stats && (
        <p data-testid="catalog-stats">
          {t('catalog.stats', { products: stats.products, favourites: stats.favourites })}
        </p>
      )}
      {stats && stats.labelMissing > 0 && (
        <p className="warning" role="alert">
          {t('catalog.flagged', { count: stats.labelMissing, labels: stats.missingLabels.join(', ') })}
        </p>
      )}
      <div className="actions row">
        <button type="button" disabled={busy} onClick={() => void loadSample().then(() => setVersion((v) => v + 1))}>
          {t('catalog.loadSample')}
        </button>
        <label className="field">
          {t('catalog.file')}
          <input
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (!file) return;
              void file.text().then((text) => {
                setCsv(text);
                void importCsv(text, true, replace);
              });
            }}
          />
        </label>
        <Check label={t('catalog.replace')} checked={replace} onChange={setReplace} />
        <button
          type="button"
          className="primary"
          disabled={busy || csv === null || !result?.dryRun || result.valid === 0}
          onClick={() => {
            if (csv !== null) void importCsv(csv, false, replace).then(() => setVersion((v) => v + 1));
          }}
        >
          {t('catalog.apply')}
        </button>
        <ActionButton label={t('action.back')} shortcut="Esc" onClick={() => setScreen('sale')} />
      </div>
      {result && (
        <section aria-label={t('catalog.preview')}>
          <p role="status">
            {t('catalog.rows', { rows: result.rows, valid: result.valid, errors: result.errors.length })}
            {!result.dryRun && ` — ${t('catalog.imported', { count: result.imported })}`}
          </p>
          <IssueTable title={t('catalog.errors')} issues={result.errors} />
          <IssueTable title={t('catalog.warnings')} issues={result.warnings} />
          {result.preview.length > 0 && (
            <table className="preview" aria-label={t('catalog.preview')}>
              <caption>{t('catalog.preview')}</caption>
              <ColumnHeads
                names={[
                  t('catalog.row'),
                  t('catalog.code'),
                  t('sale.name'),
                  t('catalog.barcodes'),
                  t('sale.price'),
                  t('sale.label'),
                  t('dialog.unit'),
                ]}
              />
              <tbody>
                {result.preview.map((p) => (
                  <tr key={p.row} className={p.labelMissing ? 'flagged' : undefined}>
                    <td>{p.row}</td>
                    <td>{p.code}</td>
                    <td>{p.name}</td>
                    <td>{p.barcodes.join(', ')}</td>
                    <td className="num">{formatRsd(p.pricePara)}</td>
                    <td>{p.label}</td>
                    <td>{t(`unit.${p.unit}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      <ProductsPanel api={props.api} imported={result} onChanged={() => setVersion((v) => v + 1)} />
    </main>
  );
}
