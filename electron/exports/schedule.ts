/**
 * The monthly export for the bookkeeper (docs/exports.md): on the day of the month the shop set (1–28), the past
 * month's files — every CSV, the Minimax file and the PDF — are written into `<folder>/<YYYY-MM>/`, each atomically
 * (a temporary file renamed into place), then the month is recorded in `export_runs` (the only writer of that
 * table). Once per month: the pass writes the newest month that is due and has no row; a restart finds the row and
 * writes nothing; a month whose day passed while the till was off is written at the next pass. A crash between the
 * renames and the row rewrites the same files with the same contents, never a second set. With the e-mail to the
 * bookkeeper set up (electron/exports/mail.ts), the month is queued for it in the row's transaction and sent after;
 * the folder is then optional.
 */
import path from 'node:path';
import fs from 'node:fs';
import type { Db } from '../db/open.ts';
import type { ExportFileKind, ScheduleView } from '../../shared/contract/exports.ts';
import { EXPORT_FILE_KINDS } from '../../shared/contract/exports.ts';
import type { PdfFile } from '../../shared/contract/goods.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { writePrivate } from '../settings/secrets.ts';
import { CommandError } from '../errors.ts';
import { createSyncLoop } from '../retry/loop.ts';
import type { ExportMail } from './mail.ts';

export interface ScheduleDeps {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  now(): number;
  /** One file of the period [from, to] (Belgrade days). */
  file(from: string, to: string, kind: ExportFileKind): Promise<PdfFile>;
  audit(actor: string | null, action: string, detail: Record<string, unknown>): void;
  /** The e-mail to the bookkeeper (electron/exports/mail.ts): queued with the month's run, then sent. */
  mail?: Pick<ExportMail, 'ready' | 'queue' | 'pump'>;
}

const KEY = 'exportsSchedule';

/** The month before the one holding `day` (YYYY-MM-DD): its first and last day and its name. */
export function monthBefore(day: string): { month: string; from: string; to: string } {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 2, 1));
  const last = new Date(Date.UTC(y, m - 1, 0));
  return {
    month: first.toISOString().slice(0, 7),
    from: first.toISOString().slice(0, 10),
    to: last.toISOString().slice(0, 10),
  };
}

/** Refuses a folder that is not absolute, not there or not writable, at `folder`. */
function checkFolder(folder: string): void {
  let ok = path.isAbsolute(folder);
  if (ok) {
    try {
      ok = fs.statSync(folder).isDirectory();
      fs.accessSync(folder, fs.constants.W_OK);
    } catch {
      ok = false;
    }
  }
  if (!ok) throw new CommandError('invalid_input', 'export_folder', { field: 'exportFolder' }, 'exportFolder');
}

export type ExportSchedule = ReturnType<typeof createExportSchedule>;

export function createExportSchedule(db: Db, deps: ScheduleDeps) {
  const setting = (): { day: number | null; folder: string | null } => {
    try {
      const v = JSON.parse(deps.get(KEY) ?? '{}') as { day?: unknown; folder?: unknown };
      return {
        day: typeof v.day === 'number' ? v.day : null,
        folder: typeof v.folder === 'string' ? v.folder : null,
      };
    } catch {
      return { day: null, folder: null };
    }
  };
  const done = db.prepare<[string], { month: string }>('SELECT month FROM export_runs WHERE month = ?');
  const record = db.prepare('INSERT OR IGNORE INTO export_runs (month, done_at, folder, files) VALUES (?, ?, ?, ?)');

  return {
    view(): ScheduleView {
      const s = setting();
      return {
        ...s,
        runs: db
          .prepare<[], { month: string; done_at: string; folder: string; files: string }>(
            'SELECT * FROM export_runs ORDER BY month DESC LIMIT 24',
          )
          .all()
          .map((r) => ({
            month: r.month,
            doneAt: r.done_at,
            folder: r.folder,
            files: JSON.parse(r.files) as string[],
          })),
      };
    },

    save(day: number | null, folder: string | null, actor: string | null): ScheduleView {
      if (day !== null) {
        // A folder, or the e-mail to the bookkeeper, or both.
        if (!folder && !deps.mail?.ready())
          throw new CommandError('invalid_input', 'required', { field: 'exportFolder' }, 'exportFolder');
        if (folder) checkFolder(folder);
      }
      deps.set(KEY, JSON.stringify({ day, folder: folder || null }));
      deps.audit(actor, 'exports.saveSchedule', { day, folder });
      return this.view();
    },

    /**
     * Writes the past month's files when its day has come and it was not written yet; returns the month written,
     * or null.
     */
    async runDue(): Promise<string | null> {
      const { day, folder } = setting();
      const mail = deps.mail?.ready() ?? false;
      if (day === null || (!folder && !mail)) return null;
      const today = dayIn(new Date(deps.now()));
      if (Number(today.slice(8, 10)) < day) return null;
      const m = monthBefore(today);
      if (done.get(m.month)) return null;
      const dir = folder ? path.join(folder, m.month) : '';
      const files: string[] = [];
      if (folder) {
        for (const kind of EXPORT_FILE_KINDS) {
          const f = await deps.file(m.from, m.to, kind);
          writePrivate(path.join(dir, f.fileName), Buffer.from(f.base64, 'base64'));
          files.push(f.fileName);
        }
      }
      // The month's run and its e-mail in one transaction: a month recorded is a month queued for the bookkeeper.
      const recorded = db.transaction(() => {
        const changed = record.run(m.month, new Date(deps.now()).toISOString(), dir, JSON.stringify(files)).changes;
        if (changed === 1 && mail) deps.mail?.queue(m.month);
        return changed === 1;
      })();
      if (recorded) deps.audit(null, 'exports.scheduled', { month: m.month, folder: dir });
      return m.month;
    },

    /** The due month (if any), then the e-mails still queued. */
    async pass(): Promise<void> {
      try {
        await this.runDue();
      } finally {
        await deps.mail?.pump();
      }
    },

    /**
     * Runs `pass` a minute after start, then every ten minutes (a failed e-mail is tried again that often); returns
     * the function that stops it.
     */
    start(onError: (err: unknown) => void): () => Promise<void> {
      const loop = createSyncLoop(() =>
        this.pass().then(
          () => undefined,
          (err: unknown) => onError(err),
        ),
      );
      loop.start(600_000, 60_000);
      return () => loop.stop();
    },
  };
}
