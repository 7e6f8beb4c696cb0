/** The manager's audit log tab. */
import { useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { AuditEntry } from '../../../shared/contract/audit.ts';
import type { Language } from '../../../shared/domain.ts';
import { call, useAction, Alert, PinInput } from './common.tsx';
import type { ManagerT } from './i18n.ts';

export function AuditTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [pin, setPin] = useState('');
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, busy, run] = useAction();
  return (
    <div className="mgr-tab">
      <form
        className="mgr-row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            setEntries((await call(api['audit.list']({ managerPin: pin, limit: 100 }))).entries);
            setPin('');
          });
        }}
      >
        <PinInput t={t} value={pin} onChange={setPin} />
        <button type="submit" disabled={busy}>
          {t('show')}
        </button>
      </form>
      <Alert text={error} />
      {entries && (
        <table className="mgr-table" aria-label={t('audit')}>
          <thead>
            <tr>
              <th>{t('at')}</th>
              <th>{t('actor')}</th>
              <th>{t('action')}</th>
              <th>{t('detail')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>{new Date(e.at).toLocaleString(lang === 'en' ? 'en-GB' : 'sr-RS')}</td>
                <td>{e.actor ?? '—'}</td>
                <td>{e.action}</td>
                <td>
                  <code>{e.detail}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
