/**
 * The till's bulk price change (`catalog.bulkPrice`): choose a group, type a percentage (a Serbian decimal comma
 * is fine), see how many products change (a dry run), then confirm with a manager's approval. A wrong group or
 * percentage is said at its field and changes nothing.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProductGroup } from '../../../shared/contract/catalog.ts';
import type { PosApi } from '../../../shared/contract/index.ts';
import { needsApproval } from '../../../shared/contract/authz.ts';
import { formatPercent } from '../../../shared/catalog/percent.ts';
import { usePos } from '../context.ts';
import { Modal } from './Modal.tsx';
import { FieldErrorText, TextField } from './TextField.tsx';
import { Options } from '../ui/Options.tsx';
import { useBulkPrice } from '../ui/useBulkPrice.ts';

export function BulkPriceDialog(props: { api: PosApi; onDone: (message: string) => void; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const withApproval = usePos((s) => s.withApproval);
  const [groups, setGroups] = useState<ProductGroup[] | null>(null);
  const { group, setGroup, percent, setPercent, errors, setErrors, preview, setPreview, busy, setBusy, checked } =
    useBulkPrice();
  const mark = i18n.language === 'en' ? '.' : ',';
  useEffect(() => {
    void props.api['catalog.groups']({}).then((r) => setGroups(r.ok ? r.value : []));
  }, [props.api]);

  /** The core's refusal at its field (`group`, `percentBp`); anything else at the group. */
  const refused = (field: string | undefined, message: string) =>
    setErrors(field === 'percentBp' ? { percent: message } : { group: message });

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const bp = checked({ groupRequired: t('catalog.groupRequired'), percentInvalid: t('catalog.percentInvalid') });
    if (bp === null) return;
    setBusy(true);
    try {
      if (preview === null) {
        const r = await props.api['catalog.bulkPrice']({ group, percentBp: bp, dryRun: true });
        if (r.ok) setPreview({ group, percentBp: bp, count: r.value.count });
        else refused('field' in r.error ? r.error.field : undefined, r.error.message);
        return;
      }
      await withApproval<{ count: number } | null>(
        async (approval) => {
          const r = await props.api['catalog.bulkPrice']({ group, percentBp: bp, ...(approval ? { approval } : {}) });
          if (r.ok || needsApproval(r.error)) return r;
          setPreview(null);
          refused('field' in r.error ? r.error.field : undefined, r.error.message);
          return { ok: true, value: null };
        },
        (v) => {
          if (v !== null)
            props.onDone(t('catalog.bulkDone', { count: v.count, group, percent: formatPercent(bp, mark) }));
        },
      );
    } finally {
      setBusy(false);
    }
  };
  const at = (field: 'group' | 'percent') => <FieldErrorText text={errors[field]} id={`bulk-${field}-error`} />;
  const invalid = (field: 'group' | 'percent') =>
    errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `bulk-${field}-error` } : {};
  return (
    <Modal title={t('catalog.bulkTitle')} onClose={props.onClose}>
      <form className="grid-form product-form" onSubmit={(e) => void submit(e)}>
        {groups !== null && groups.length === 0 && <p className="wide-field">{t('catalog.noGroups')}</p>}
        <label className="field">
          {t('catalog.bulkGroup')}
          <select value={group} onChange={(e) => setGroup(e.target.value)} {...invalid('group')}>
            <option value="">{t('catalog.chooseGroup')}</option>
            <Options of={groups ?? []} value={(g) => g.name} text={(g) => `${g.name} (${g.products})`} />
          </select>
          {at('group')}
        </label>
        <TextField
          label={t('catalog.bulkPercent')}
          value={percent}
          onChange={setPercent}
          input={{ inputMode: 'decimal', ...invalid('percent') }}
          error={at('percent')}
        />
        {preview && (
          <p role="status" className="wide-field">
            {t('catalog.bulkAsk', {
              count: preview.count,
              group: preview.group,
              percent: formatPercent(preview.percentBp, mark),
            })}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="button" onClick={props.onClose}>
            {t('catalog.cancel')}
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {preview === null ? t('catalog.bulkPreview') : t('catalog.bulkConfirm')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
