/** The manager's audit log tab. */
import { useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { AuditEntry } from '../../../shared/contract/audit.ts';
import type { Language } from '../../../shared/domain.ts';
import { call, localTime, useAction, Alert, MgrTable, PinForm } from './common.tsx';
import type { ManagerT } from './i18n.ts';

export function AuditTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, busy, run] = useAction();
  return (
    <div className="mgr-tab">
      <PinForm
        t={t}
        busy={busy}
        run={run}
        button={t('show')}
        onPin={async (managerPin) => setEntries((await call(api['audit.list']({ managerPin, limit: 100 }))).entries)}
      />
      <Alert text={error} />
      {entries && (
        <MgrTable label={t('audit')} headers={[t('at'), t('actor'), t('action'), t('detail')]}>
          {entries.map((e) => (
            <tr key={e.id}>
              <td>{localTime(e.at, lang)}</td>
              <td>{e.actor ?? '—'}</td>
              <td>{e.action}</td>
              <td>
                <code>{e.detail}</code>
              </td>
            </tr>
          ))}
        </MgrTable>
      )}
    </div>
  );
}
