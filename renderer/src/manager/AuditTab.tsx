/** The manager's audit log tab: each entry as a sentence in the UI language, with who did it and who approved. */
import { useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { AuditEntry } from '../../../shared/contract/audit.ts';
import type { Language } from '../../../shared/domain.ts';
import { tillAuditSentence } from '../../../shared/i18n/audit.ts';
import { call, localTime, pinOf, useRunner, Alert, MgrTable, PinForm } from './common.tsx';
import type { ManagerT } from './i18n.ts';

export function AuditTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, runner] = useRunner(t);
  return (
    <div className="mgr-tab">
      <PinForm
        selfApproves
        runner={runner}
        button={t('show')}
        onPin={async (managerPin) =>
          setEntries((await call(api['audit.list']({ ...pinOf(managerPin), limit: 100 }))).entries)
        }
      />
      <Alert text={error} />
      {entries && (
        <MgrTable label={t('audit')} headers={[t('at'), t('actor'), t('auditApprover'), t('auditWhat')]}>
          {entries.map((e) => (
            <tr key={e.id}>
              <td>{localTime(e.at, lang)}</td>
              <td>{e.actor ?? '—'}</td>
              <td>{e.approver ?? '—'}</td>
              <td>{tillAuditSentence(lang, e)}</td>
            </tr>
          ))}
        </MgrTable>
      )}
    </div>
  );
}
