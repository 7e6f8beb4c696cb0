/**
 * Менаџер → Етикете (docs/prices.md, "Shelf labels"): which products to label (chosen codes, a group, or every
 * product whose label is out of date), in Cyrillic or Latin, a preview of each label as it would print now, then
 * the label printer or an A4 sheet (PDF). Below: the label printer (address, model, label size, media) and a
 * product's net quantity for its unit price. The core refuses a product needing a unit price without a net
 * quantity, or a size the printer does not take, in the manager's language at the field.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { LabelSelection, LabelsOverview, LabelView } from '../../../shared/contract/labels.ts';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { Language } from '../../../shared/domain.ts';
import type { LabelScript } from '../../../shared/i18n/labels.ts';
import {
  ApprovedForm,
  call,
  ChoiceField,
  Field,
  type ApprovedField,
  localTime,
  NoteAndAlert,
  pinOf,
  RunButton,
  useRunner,
  type Runner,
} from './common.tsx';
import { savePdf } from './GoodsTab.tsx';
import type { ManagerT, ManagerText } from './i18n.ts';

type Which = 'products' | 'group' | 'changed';

/** A select's options from `[value, text]` pairs. */
const optionsOf = (pairs: readonly (readonly [string, string])[]) =>
  pairs.map(([value, text]) => (
    <option key={value} value={value}>
      {text}
    </option>
  ));

/** A number as typed, with a decimal comma or point. */
const num = (v: string): number => Number(v.replace(',', '.'));

/**
 * One of the tab's two forms (the label printer, a product's net quantity): its name, button and error ids from
 * `labels_<name>_form` / `_save` and `label-<name>`, its fields' labels from their keys. A manager logged in needs
 * no PIN for labels.
 */
function LabelsForm<F extends string>(props: {
  runner: Runner;
  name: 'printer' | 'net';
  labels: Record<F, ManagerText>;
  onSubmit: (pin: string) => Promise<void>;
  children: (field: ApprovedField<F>) => ReactNode;
}) {
  const { runner, name } = props;
  const { t } = runner;
  const labels = Object.fromEntries(Object.entries<ManagerText>(props.labels).map(([k, key]) => [k, t(key)]));
  return (
    <ApprovedForm
      runner={runner}
      selfApproves
      label={t(`labels_${name}_form`)}
      button={t(`labels_${name}_save`)}
      idPrefix={`label-${name}`}
      labels={labels as Record<F, string>}
      onSubmit={props.onSubmit}
    >
      {props.children}
    </ApprovedForm>
  );
}

/** A number field as typed (a decimal comma or point), `size` characters wide. */
const decimalInput =
  (value: string, set: (v: string) => void, size: number) =>
  (e: { 'aria-invalid'?: boolean; 'aria-describedby'?: string }) => (
    <input inputMode="decimal" size={size} value={value} onChange={(ev) => set(ev.target.value)} {...e} />
  );

function LabelCard(props: { t: ManagerT; lang: Language; label: LabelView }) {
  const { t, lang, label } = props;
  return (
    <li className="label-card" aria-label={label.name}>
      <strong className="label-name">{label.name}</strong>
      <span className="label-price">
        {label.price} <small>{label.currency}</small>
      </span>
      {label.oldPrice && <s className="label-small">{label.oldPrice}</s>}
      {label.promotion && <span className="label-small">{label.promotion}</span>}
      {label.unitPrice && <span className="label-small">{label.unitPrice}</span>}
      {label.barcode && <span className="label-barcode">{label.barcode.data}</span>}
      <span className="label-when">
        {label.printedAt ? t('labels_printed_at', { at: localTime(label.printedAt, lang) }) : t('labels_never_printed')}
      </span>
    </li>
  );
}

function PrinterForm(props: {
  runner: Runner;
  overview: LabelsOverview;
  onSaved: (note: string) => void;
  api: PosApi;
}) {
  const { overview } = props;
  const { t } = props.runner;
  const saved = overview.printer;
  const [uri, setUri] = useState(saved?.uri ?? '');
  const [presetId, setPresetId] = useState(saved?.presetId ?? overview.presets[0]?.id ?? '');
  const [width, setWidth] = useState(String(saved?.widthMm ?? 58));
  const [height, setHeight] = useState(String(saved?.heightMm ?? 40));
  const [media, setMedia] = useState<'gap' | 'mark'>(saved?.media ?? 'gap');
  const [mediaMm, setMediaMm] = useState(String(saved?.mediaMm ?? 2));
  return (
    <LabelsForm
      {...props}
      name="printer"
      labels={{
        uri: 'labels_uri',
        presetId: 'labels_preset',
        widthMm: 'labels_width',
        heightMm: 'labels_height',
        media: 'labels_media',
        mediaMm: 'labels_media_mm',
      }}
      onSubmit={async (pin) => {
        await call(
          props.api['labels.printerSet']({
            ...pinOf(pin),
            uri,
            presetId,
            widthMm: num(width),
            heightMm: num(height),
            media,
            mediaMm: num(mediaMm),
          }),
        );
        props.onSaved(t('labels_printer_saved'));
      }}
    >
      {(field) => (
        <>
          {field('uri', (e) => (
            <input value={uri} placeholder="192.168.1.60:9100" onChange={(ev) => setUri(ev.target.value)} {...e} />
          ))}
          {field('presetId', (e) => (
            <select value={presetId} onChange={(ev) => setPresetId(ev.target.value)} {...e}>
              {overview.presets.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          ))}
          {field('widthMm', decimalInput(width, setWidth, 5))}
          {field('heightMm', decimalInput(height, setHeight, 5))}
          {field('media', (e) => (
            <select value={media} onChange={(ev) => setMedia(ev.target.value as 'gap' | 'mark')} {...e}>
              <option value="gap">{t('labels_media_gap')}</option>
              <option value="mark">{t('labels_media_mark')}</option>
            </select>
          ))}
          {field('mediaMm', decimalInput(mediaMm, setMediaMm, 4))}
        </>
      )}
    </LabelsForm>
  );
}

function NetQuantityForm(props: { runner: Runner; api: PosApi; onSaved: (note: string) => void }) {
  const { t } = props.runner;
  const [code, setCode] = useState('');
  const [net, setNet] = useState('');
  const [unit, setUnit] = useState<'kg' | 'l' | ''>('kg');
  const [required, setRequired] = useState(true);
  return (
    <LabelsForm
      {...props}
      name="net"
      labels={{
        code: 'labels_code',
        netQuantity: 'labels_net',
        netUnit: 'labels_net_unit',
        unitPriceRequired: 'labels_unit_price_required',
      }}
      onSubmit={async (pin) => {
        const quantity = net.trim() === '' ? null : num(net);
        await call(
          props.api['labels.productSet']({
            ...pinOf(pin),
            code: code.trim(),
            netQuantity: quantity,
            netUnit: unit === '' ? null : unit,
            unitPriceRequired: required,
          }),
        );
        props.onSaved(t('labels_net_saved'));
      }}
    >
      {(field) => (
        <>
          {field('code', (e) => (
            <input value={code} size={14} onChange={(ev) => setCode(ev.target.value)} {...e} />
          ))}
          {field('netQuantity', decimalInput(net, setNet, 6))}
          {field('netUnit', (e) => (
            <select value={unit} onChange={(ev) => setUnit(ev.target.value as 'kg' | 'l' | '')} {...e}>
              <option value="kg">{t('labels_unit_kg')}</option>
              <option value="l">{t('labels_unit_l')}</option>
              <option value="">{t('labels_unit_none')}</option>
            </select>
          ))}
          {field('unitPriceRequired', (e) => (
            <input type="checkbox" checked={required} onChange={(ev) => setRequired(ev.target.checked)} {...e} />
          ))}
        </>
      )}
    </LabelsForm>
  );
}

export function LabelsTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [overview, setOverview] = useState<LabelsOverview | null>(null);
  const [which, setWhich] = useState<Which>('changed');
  const [codes, setCodes] = useState('');
  const [group, setGroup] = useState('');
  const [script, setScript] = useState<LabelScript>(lang === 'sr-Latn' ? 'sr-Latn' : 'sr-Cyrl');
  const [copies, setCopies] = useState('1');
  const [stock, setStock] = useState('');
  const [preview, setPreview] = useState<LabelView[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [error, runner] = useRunner(t);
  const { run, busy } = runner;

  const load = async (): Promise<void> => {
    const o = await call(api['labels.overview']({}));
    setOverview(o);
    setGroup((g) => g || (o.groups[0] ?? ''));
    setStock((s) => s || (o.stocks[0]?.id ?? ''));
  };
  useEffect(() => {
    void run(load);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  /** A setting saved by one of the forms below: its note, and the overview read again. */
  const saved = (text: string) => {
    setNote(text);
    void run(load);
  };
  // Both settings forms send through the tab's runner and report here when saved.
  const formProps = { runner, api, onSaved: saved };

  const selection = (): LabelSelection =>
    which === 'products'
      ? {
          kind: 'products',
          codes: codes
            .split(/[,\s]+/)
            .map((c) => c.trim())
            .filter((c) => c.length > 0),
        }
      : which === 'group'
        ? { kind: 'group', group }
        : { kind: 'changed' };

  /** One of the tab's actions (preview, print, PDF): the last note cleared first, a refusal to the tab's alert. */
  const labelsAction = (text: ManagerText, action: () => Promise<void>) => (
    <RunButton
      run={run}
      busy={busy}
      action={async () => {
        setNote(null);
        await action();
      }}
    >
      {t(text)}
    </RunButton>
  );

  const choices: [Which, string][] = [
    ['changed', t('labels_sel_changed', { count: overview?.changed ?? 0 })],
    ['products', t('labels_sel_products')],
    ['group', t('labels_sel_group')],
  ];

  return (
    <section aria-label={t('labels_title')} className="labels-tab">
      <h2>{t('labels_title')}</h2>
      <fieldset className="scope">
        <legend>{t('labels_which')}</legend>
        {choices.map(([k, text]) => (
          <label key={k}>
            <input type="radio" name="labels-which" checked={which === k} onChange={() => setWhich(k)} />
            {text}
          </label>
        ))}
      </fieldset>
      <div className="mgr-row">
        {which === 'products' && (
          <Field label={t('labels_codes')}>
            <input value={codes} size={40} onChange={(e) => setCodes(e.target.value)} />
          </Field>
        )}
        {which === 'group' && (
          <Field label={t('labels_group')}>
            <select value={group} onChange={(e) => setGroup(e.target.value)}>
              {optionsOf((overview?.groups ?? []).map((g) => [g, g]))}
            </select>
          </Field>
        )}
        <ChoiceField
          label={t('labels_script')}
          value={script}
          options={{ 'sr-Cyrl': t('labels_cyrillic'), 'sr-Latn': t('labels_latin') }}
          onChange={setScript}
        />
        {labelsAction('labels_preview', async () => {
          setPreview([]);
          setPreview((await call(api['labels.preview']({ selection: selection(), script }))).labels);
        })}
      </div>
      <div className="mgr-row">
        <Field label={t('labels_copies')}>
          <input inputMode="numeric" size={3} value={copies} onChange={(e) => setCopies(e.target.value)} />
        </Field>
        {labelsAction('labels_print', async () => {
          const done = await call(api['labels.print']({ selection: selection(), script, copies: Number(copies) || 1 }));
          setNote(t('labels_printed', { count: done.printed }));
          await load();
        })}
        <Field label={t('labels_stock')}>
          <select value={stock} onChange={(e) => setStock(e.target.value)}>
            {optionsOf((overview?.stocks ?? []).map((s) => [s.id, s.name]))}
          </select>
        </Field>
        {labelsAction('labels_pdf', async () => {
          const file = await call(api['labels.pdf']({ selection: selection(), script, stock }));
          savePdf(file);
          setNote(t('labels_pdf_done', { file: file.fileName }));
          await load();
        })}
      </div>
      <NoteAndAlert note={note} error={error} />
      {preview.length > 0 && (
        <ul className="label-cards" aria-label={t('labels_preview_list')}>
          {preview.map((l) => (
            <LabelCard key={l.code} t={t} lang={lang} label={l} />
          ))}
        </ul>
      )}
      <h3>{t('labels_printer_title')}</h3>
      {overview && !overview.printer && <p>{t('labels_no_printer')}</p>}
      {overview && <PrinterForm key={overview.printer?.uri ?? 'none'} {...formProps} overview={overview} />}
      <h3>{t('labels_net_title')}</h3>
      <NetQuantityForm {...formProps} />
    </section>
  );
}
