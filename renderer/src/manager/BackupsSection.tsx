/** The database backups' section of the manager's settings. */
import { useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { BackupsView } from '../../../shared/contract/backups.ts';
import type { Language } from '../../../shared/domain.ts';
import { Modal } from '../components/Modal.tsx';
import { call, localTime, pinOf, useAction, Alert, MgrTable, PinForm, PinInput } from './common.tsx';
import type { ManagerT } from './i18n.ts';

/** The database backups with the start-up integrity check; restore stages one for the next start. */
export function BackupsSection(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [view, setView] = useState<BackupsView | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);
  const [confirmPin, setConfirmPin] = useState('');
  const [restored, setRestored] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const [confirmError, confirmBusy, runConfirm] = useAction();
  return (
    <section className="mgr-backups" aria-label={t('backups')}>
      <h3>{t('backups')}</h3>
      <PinForm
        selfApproves
        t={t}
        busy={busy}
        run={run}
        button={t('backups_show')}
        onPin={async (managerPin) => setView(await call(api['backups.list']({ ...pinOf(managerPin) })))}
      />
      <Alert text={error} />
      {view && (
        <>
          <p role="status" data-testid="integrity" className={view.integrity.ok ? '' : 'mgr-error'}>
            {view.integrity.pending
              ? t('integrity_pending')
              : view.integrity.ok
                ? t('integrity_ok')
                : t('integrity_bad', { problems: view.integrity.problems.join('; ') })}
          </p>
          {view.lastBackupError && <p className="mgr-error">{t('backup_error', { message: view.lastBackupError })}</p>}
          {view.backups.length === 0 ? (
            <p>{t('none')}</p>
          ) : (
            <MgrTable
              label={t('backups')}
              headers={[t('backup_name'), t('backup_kind'), t('at'), t('backup_size'), '']}
            >
              {view.backups.map((b) => (
                <tr key={b.name}>
                  <td>{b.name}</td>
                  <td>
                    {b.kind === 'pre-restore'
                      ? t('backup_pre_restore')
                      : b.chain?.type === 'incremental'
                        ? t('backup_incremental', { parent: b.chain.parent ?? '?' })
                        : t(!b.chain ? 'backup_copy' : b.chain.type === 'full' ? 'backup_full' : 'backup_unreadable')}
                  </td>
                  <td>{localTime(b.createdAt, lang)}</td>
                  <td>{Math.round(b.bytes / 1024)} KB</td>
                  <td>
                    <button type="button" onClick={() => setConfirm(b.name)}>
                      {t('restore', { name: b.name })}
                    </button>
                  </td>
                </tr>
              ))}
            </MgrTable>
          )}
        </>
      )}
      {restored && (
        <p role="status" className="mgr-warn">
          {t('restore_staged', { name: restored })}
        </p>
      )}
      {confirm && (
        <Modal title={t('restore_title')} onClose={() => setConfirm(null)}>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void runConfirm(async () => {
                const r = await call(api['backups.restore']({ ...pinOf(confirmPin), name: confirm }));
                setRestored(r.name);
                setConfirm(null);
                setConfirmPin('');
              });
            }}
          >
            <p>{t('restore_confirm', { name: confirm })}</p>
            <PinInput selfApproves t={t} value={confirmPin} onChange={setConfirmPin} />
            <Alert text={confirmError} />
            <div className="dialog-buttons">
              <button type="button" data-close onClick={() => setConfirm(null)}>
                {t('cancel')}
              </button>
              <button type="submit" className="danger" disabled={confirmBusy}>
                {t('restore_do')}
              </button>
            </div>
          </form>
        </Modal>
      )}
    </section>
  );
}
