/**
 * The exports area's handlers (shared/contract/exports.ts): thin adapters to the export service, its files, the
 * account map (a setting) and the monthly schedule. Each carries a manager's PIN (or the manager logged in at this
 * till approves it herself); a file made and a map changed are audited.
 */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { approverOf } from '../auth/context.ts';
import type { AccountsView } from '../../shared/contract/exports.ts';
import { DEFAULT_ACCOUNTS, accountsChanged, accountsFrom, type AccountMap } from '../../shared/exports/accounts.ts';
import type { ExportService } from './service.ts';
import { exportFile, type ExportFileDeps } from '../../shared/node/export-files.ts';
import type { ExportSchedule } from './schedule.ts';
import type { ExportMail } from './mail.ts';

export interface ExportHandlerDeps {
  service: ExportService;
  files: ExportFileDeps;
  schedule: ExportSchedule;
  mail: ExportMail;
  saveAccounts(map: AccountMap): void;
  audit: (actor: string | null, action: string, detail: Record<string, unknown>) => void;
}

export function exportsHandlers(d: ExportHandlerDeps): AreaHandlers<'exports'> {
  const accountsView = (): AccountsView => ({ accounts: d.files.accounts(), defaults: { ...DEFAULT_ACCOUNTS } });
  return areaHandlers('exports', {
    'exports.build': async ({ from, to }) => d.service.build(from, to),
    'exports.file': async ({ from, to, kind }, caller) => {
      const file = await exportFile(d.service.build(from, to), kind, d.files);
      d.audit(approverOf(caller).name, 'exports.file', { kind, from, to });
      return file;
    },
    'exports.accounts': async () => accountsView(),
    'exports.saveAccounts': async ({ accounts }, caller) => {
      const before = d.files.accounts();
      const next = accountsFrom({ ...before, ...accounts });
      d.saveAccounts(next);
      d.audit(approverOf(caller).name, 'exports.saveAccounts', { accounts: accountsChanged(before, next).join(', ') });
      return accountsView();
    },
    'exports.schedule': async () => d.schedule.view(),
    'exports.saveSchedule': async ({ exportDay, exportFolder }, caller) =>
      d.schedule.save(exportDay, exportFolder, approverOf(caller).name),
    'exports.mail': async () => d.mail.view(),
    'exports.saveMail': async ({ managerPin: _pin, ...input }, caller) => d.mail.save(input, approverOf(caller).name),
    'exports.sendNow': async () => {
      await d.mail.pump();
      return d.mail.view();
    },
  });
}
