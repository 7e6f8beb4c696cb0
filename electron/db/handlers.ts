/** The backups area's handlers (shared/contract/backups.ts): the backups, and a restore at the next start. */
import { approverOf } from '../auth/context.ts';
import type { StaffService } from '../auth/staff.ts';
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { CommandError } from '../errors.ts';
import { BackupCopyRefused, copyBackupTo, listBackups, requestRestore, type BackupInfo } from './backup.ts';
import type { StartupReport } from './integrity.ts';

export interface BackupsHandlerDeps {
  dataDir: string;
  /** What the start-up checks found (quick_check, the day's backup). */
  startup(): StartupReport;
  /** A backup now (maintenance.ts `backupNow`); null while the integrity check found problems. */
  backupNow(): Promise<BackupInfo | null>;
  staff: StaffService;
}

export function backupsHandlers(deps: BackupsHandlerDeps): AreaHandlers<'backups'> {
  return areaHandlers('backups', {
    'backups.list': async () => {
      const report = deps.startup();
      return {
        backups: listBackups(deps.dataDir).map((b) => ({
          name: b.name,
          kind: b.kind,
          createdAt: b.createdAt,
          bytes: b.bytes,
          ...(b.chain ? { chain: b.chain } : {}),
        })),
        integrity: {
          ok: report.integrity.ok,
          problems: report.integrity.problems,
          ...(report.integrity.pending ? { pending: true } : {}),
        },
        lastBackupError: report.backupError,
      };
    },
    'backups.restore': async ({ name }, caller) => {
      const actor = approverOf(caller).name;
      let result: { restartRequired: true; name: string };
      try {
        result = requestRestore(deps.dataDir, name);
      } catch (err) {
        throw new CommandError(
          'invalid_input',
          'backup_unusable',
          { field: 'name', reason: err instanceof Error ? err.message : String(err) },
          'name',
        );
      }
      deps.staff.audit(actor, 'backups.restore', { name });
      return result;
    },
    'backups.create': async (_input, caller) => {
      const actor = approverOf(caller).name;
      const b = await deps.backupNow();
      if (!b) throw new CommandError('conflict', 'backup_not_now');
      deps.staff.audit(actor, 'backups.create', { name: b.name });
      return { name: b.name, createdAt: b.createdAt, bytes: b.bytes };
    },
    'backups.copy': async ({ name, folder }, caller) => {
      const actor = approverOf(caller).name;
      if (!listBackups(deps.dataDir).some((b) => b.name === name))
        throw new CommandError('not_found', 'backup_missing', { name }, 'name');
      let file: string;
      try {
        file = copyBackupTo(deps.dataDir, name, folder).file;
      } catch (err) {
        if (err instanceof BackupCopyRefused)
          throw err.key === 'backup_copy_failed'
            ? new CommandError('conflict', 'backup_copy_failed')
            : new CommandError('invalid_input', err.key, { field: 'folder', file: err.file }, 'folder');
        throw err;
      }
      deps.staff.audit(actor, 'backups.copy', { name, file });
      return { name, file };
    },
  });
}
