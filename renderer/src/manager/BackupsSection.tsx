/** The database backups' section of the manager's settings. */
import { useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { BackupsView } from '../../../shared/contract/backups.ts';
import type { Language } from '../../../shared/domain.ts';
import { Modal } from '../components/Modal.tsx';
import { formatMoment } from '../../../shared/i18n/time.ts';
import { formatSize } from '../../../shared/i18n/size.ts';
import {
  call,
  pinOf,
  useAction,
  useRunner,
  Alert,
  ApprovedForm,
  MgrTable,
  PinForm,
  PinInput,
  RunButton,
} from './common.tsx';
import type { ManagerT } from './i18n.ts';

/**
 * The database backups with the start-up integrity check, by date (the shop's time) and size in words; a backup
 * taken now; a copy into a folder the manager names (a USB drive); restore stages one for the next start.
 */
export function BackupsSection(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [view, setView] = useState<BackupsView | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);
  const [confirmPin, setConfirmPin] = useState('');
  const [restored, setRestored] = useState<string | null>(null);
  const [copying, setCopying] = useState<BackupsView['backups'][number] | null>(null);
  const [folder, setFolder] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [error, runner] = useRunner(t);
  const { run, busy } = runner;
  const [copyError, copyRunner] = useRunner(t);
  const when = (iso: string) => formatMoment(iso, lang);
  // The point an increment builds on, by its time as the list shows it (its file name when not listed).
  const parentWhen = (parent: string | null): string => {
    const p = view?.backups.find((b) => b.name === parent);
    return p ? when(p.createdAt) : (parent ?? '?');
  };
  const refresh = async () => setView(await call(api['backups.list']({})));
  const [confirmError, confirmBusy, runConfirm] = useAction();
  return (
    <section className="mgr-backups" aria-label={t('backups')}>
      <h3>{t('backups')}</h3>
      <PinForm
        selfApproves
        runner={runner}
        button={t('backups_show')}
        onPin={async (managerPin) => setView(await call(api['backups.list']({ ...pinOf(managerPin) })))}
      />
      <RunButton
        run={run}
        busy={busy}
        action={async () => {
          setNote(null);
          const b = await call(api['backups.create']({}));
          setNote(t('backup_created', { at: when(b.createdAt), size: formatSize(b.bytes, lang) }));
          await refresh();
        }}
      >
        {t('backup_create')}
      </RunButton>
      {note && (
        <p role="status" data-testid="backup-note">
          {note}
        </p>
      )}
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
            <MgrTable label={t('backups')} headers={[t('at'), t('backup_kind'), t('backup_size'), '']}>
              {view.backups.map((b) => (
                <tr key={b.name}>
                  <td>{when(b.createdAt)}</td>
                  <td>
                    {b.kind === 'pre-restore'
                      ? t('backup_pre_restore')
                      : b.chain?.type === 'incremental'
                        ? t('backup_incremental', { parent: parentWhen(b.chain.parent) })
                        : t(!b.chain ? 'backup_copy' : b.chain.type === 'full' ? 'backup_full' : 'backup_unreadable')}
                  </td>
                  <td className="num">{formatSize(b.bytes, lang)}</td>
                  <td className="mgr-actions">
                    <button
                      type="button"
                      aria-label={t('backup_copy_named', { at: when(b.createdAt) })}
                      onClick={() => {
                        setNote(null);
                        setCopying(b);
                      }}
                    >
                      {t('backup_copy_to')}
                    </button>{' '}
                    <button type="button" onClick={() => setConfirm(b.name)}>
                      {t('restore', { name: when(b.createdAt) })}
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
      {copying && (
        <Modal title={t('backup_copy_title', { at: when(copying.createdAt) })} onClose={() => setCopying(null)}>
          <ApprovedForm
            selfApproves
            runner={copyRunner}
            label={t('backup_copy_title', { at: when(copying.createdAt) })}
            button={t('backup_copy_do')}
            idPrefix="backup-copy"
            labels={{ folder: t('backup_copy_folder') }}
            onSubmit={async (managerPin) => {
              const r = await call(
                api['backups.copy']({ ...pinOf(managerPin), name: copying.name, folder: folder.trim() }),
              );
              setNote(t('backup_copied', { file: r.file }));
              setCopying(null);
            }}
          >
            {(field) =>
              field('folder', (errorProps) => (
                <input
                  size={40}
                  spellCheck={false}
                  autoComplete="off"
                  placeholder="/media/usb"
                  value={folder}
                  {...errorProps}
                  aria-describedby={[errorProps['aria-describedby'], 'backup-copy-hint'].filter(Boolean).join(' ')}
                  onChange={(e) => setFolder(e.target.value)}
                />
              ))
            }
          </ApprovedForm>
          <p id="backup-copy-hint" className="mgr-hint">
            {t('backup_copy_hint')}
          </p>
          <Alert text={copyError} />
          <div className="dialog-buttons">
            <button type="button" data-close onClick={() => setCopying(null)}>
              {t('cancel')}
            </button>
          </div>
        </Modal>
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
            <p>
              {t('restore_confirm', {
                name: ((at) => (at ? when(at) : confirm))(view?.backups.find((b) => b.name === confirm)?.createdAt),
              })}
            </p>
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
