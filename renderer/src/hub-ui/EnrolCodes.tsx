/**
 * The shop's enrolment codes in the hub UI's Касе section (issue 39): when each was made, until when it may be
 * spent, its state (open, used by which till, expired, revoked), and a button to revoke an open one. The list
 * never holds a code: a code is shown once, when it is made (HubApp.tsx). A code is revoked in one click (it
 * enrols nothing once revoked; a new one is made as easily).
 */
import { useState } from 'react';
import { formatMoment } from '../../../shared/i18n/time.ts';
import { Alert, MgrTable } from '../ui/forms.tsx';
import type { HubKey, HubLang, HubT } from './i18n.ts';
import type { EnrolCodeRow } from '../../../shared/hub/contract.ts';
import type { HubUiApi } from './api.ts';
import { useHubRead } from './useHubRead.ts';

type CodeRow = EnrolCodeRow;

export function EnrolCodes(props: {
  t: HubT;
  lang: HubLang;
  api: HubUiApi;
  errorText: (err: unknown) => string;
  /** Changes when a new code was made, so the list is read again. */
  version: number;
  tillName: (id: number) => string;
}) {
  const { t, lang, api, errorText, version, tillName } = props;
  const [codes, setCodes] = useState<CodeRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [reread, setReread] = useState(0);
  useHubRead(
    () => api.call('enrolCodes'),
    (r) => setCodes(r.codes),
    (err) => setError(errorText(err)),
    [api, errorText, version, reread],
  );
  const when = (at: string): string => formatMoment(at, lang);
  const revoke = async (c: CodeRow): Promise<void> => {
    try {
      await api.call('revokeEnrolCode', { id: c.id });
      setError(null);
      setReread((n) => n + 1);
    } catch (err) {
      setError(errorText(err));
    }
  };
  if (codes.length === 0 && !error) return null;
  return (
    <>
      <Alert text={error} />
      <MgrTable
        label={t('enrolCodes')}
        headers={(['codeMade', 'codeUntil', 'codeState', 'actions'] as const).map((k) => t(k))}
      >
        {codes.map((c) => (
          <tr key={c.id}>
            <td>{when(c.createdAt)}</td>
            <td>{when(c.expiresAt)}</td>
            <td>
              {c.state === 'used' && c.tillId !== null
                ? t('codeUsedBy', { name: tillName(c.tillId) })
                : t(`codeState_${c.state}` as HubKey)}
            </td>
            <td>
              {c.state === 'open' ? (
                <button type="button" className="danger" onClick={() => void revoke(c)}>
                  {t('revokeCode', { time: when(c.createdAt) })}
                </button>
              ) : (
                '—'
              )}
            </td>
          </tr>
        ))}
      </MgrTable>
    </>
  );
}
