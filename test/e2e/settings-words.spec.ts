/**
 * Issue 38 friction, „settings and backups speak the shop's language“ (docs/manager.md): Менаџер → Подешавања in
 * headed groups, the saved receipt header and footer shown in their fields, the outage alarm typed and shown in
 * hours (stored in minutes), backups by date (the shop's time) and size in words, a backup taken now, and a copy
 * into a folder the manager types: a relative path and a file already there are refused at the field, a good
 * folder gets one standalone database file. In all three languages, with screenshots at both till sizes
 * (KASA_SHOTS=<dir>: <dir>/settings-words-<lang>-<part>-<width>.png).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BackupsView } from '../../shared/contract/backups.ts';
import type { SettingsView } from '../../shared/contract/settings.ts';
import { fieldLabel } from '../../shared/i18n/fields.ts';
import { mt } from '../../renderer/src/manager/i18n.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { expect, test } from './fixtures.ts';
import { inEachLanguage, LANGUAGES, openManagerTab, shotsAtTillSizes } from './languages.ts';

/** „28.11.2026. 18:42“ (Serbian) or „28/11/2026, 18:42“ (English): a day and a time, never an ISO stamp. */
const MOMENT: Record<(typeof LANGUAGES)[number], RegExp> = {
  'sr-Cyrl': /\d{2}\.\d{2}\.\d{4}\. \d{2}:\d{2}/,
  'sr-Latn': /\d{2}\.\d{2}\.\d{4}\. \d{2}:\d{2}/,
  en: /\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}/,
};
/** A size in words: „1,2 MB“ / „1.2 MB“, „350 KB“. */
const SIZE: Record<(typeof LANGUAGES)[number], RegExp> = {
  'sr-Cyrl': /^\d+(,\d)? (B|KB|MB|GB)$/,
  'sr-Latn': /^\d+(,\d)? (B|KB|MB|GB)$/,
  en: /^\d+(\.\d)? (B|KB|MB|GB)$/,
};

inEachLanguage((lang) => {
  test('settings in headed groups with the saved header shown and hours in hours; backups taken now and copied to a folder', async ({
    kasa,
  }) => {
    const { page } = kasa;
    // The receipt's header and footer as saved (through the core, as another session would).
    const header = 'Продавница „Код Мике“\nНемањина 4, Београд';
    const footer = 'Хвала на куповини!';
    const first = await openManagerTab(page, lang, 'tab_settings');
    const set = await kasa.host.call('printer.configure', {
      uri: 'tcp://192.168.1.50:9100',
      profileId: 'generic-80',
      header,
      footer,
      approval: { managerPin: MANAGER_PIN },
    });
    if (!set.body.ok) throw new Error(JSON.stringify(set.body));
    // The manager screen opened afresh reads them back from the settings.
    await first.getByRole('button', { name: mt(lang, 'close'), exact: true }).click();
    await page.getByRole('button', { name: mt(lang, 'open') }).click();
    const mgr = page.getByRole('dialog', { name: mt(lang, 'title') });
    await mgr.getByRole('tab', { name: mt(lang, 'tab_settings') }).click();
    for (const group of ['group_shop', 'group_receipt', 'group_fiscal', 'printer', 'backups'] as const)
      await expect(mgr.getByRole('heading', { name: mt(lang, group), exact: true })).toBeVisible();

    const shop = mgr.getByRole('region', { name: mt(lang, 'group_shop') });
    await expect(shop.getByRole('form', { name: mt(lang, 'shop_settings') })).toBeVisible();
    const printer = mgr.getByRole('region', { name: mt(lang, 'printer') });
    await expect(printer.getByLabel(mt(lang, 'printer_header'))).toHaveValue(header);
    await expect(printer.getByLabel(mt(lang, 'printer_footer'))).toHaveValue(footer);

    // The outage alarm is hours (24 by default, stored as 1440 minutes): typed and shown in hours.
    const fiscal = mgr.getByRole('region', { name: mt(lang, 'group_fiscal') });
    const offline = fiscal.getByRole('form', { name: mt(lang, 'offline_settings') });
    const alarm = offline.getByLabel(mt(lang, 'alarm_hours'));
    await expect(alarm).toHaveValue('24');
    await alarm.fill('дуго');
    await offline.getByRole('button', { name: mt(lang, 'save') }).click();
    await expect(alarm).toHaveAttribute('aria-invalid', 'true');
    await expect(alarm).toHaveAccessibleDescription(mt(lang, 'hours_format', { field: mt(lang, 'alarm_hours') }));
    const before = await kasa.host.call<SettingsView>('settings.get', {});
    expect(before.body.value?.outageAlarmMinutes).toBe(24 * 60);
    await alarm.fill(lang === 'en' ? '1.5' : '1,5');
    await offline.getByRole('button', { name: mt(lang, 'save') }).click();
    await expect(mgr.getByText(mt(lang, 'saved'), { exact: true })).toBeVisible();
    const after = await kasa.host.call<SettingsView>('settings.get', {});
    expect(after.body.value?.outageAlarmMinutes).toBe(90);
    await shotsAtTillSizes(page, `settings-words-${lang}-groups`, shop);

    // A backup now: said with its time and size in words, and listed so.
    const backups = mgr.getByRole('region', { name: mt(lang, 'backups') });
    const taken = (await kasa.host.call<BackupsView>('backups.list', { managerPin: MANAGER_PIN })).body.value?.backups
      .length;
    await backups.getByRole('button', { name: mt(lang, 'backup_create') }).click();
    await expect(backups.getByTestId('backup-note')).toContainText(MOMENT[lang]);
    const list = (await kasa.host.call<BackupsView>('backups.list', { managerPin: MANAGER_PIN })).body.value;
    expect(list?.backups.length).toBeGreaterThan(taken ?? 0);
    const newest = list?.backups[0];
    if (!newest) throw new Error('no backup after „backup now“');
    const table = backups.getByRole('table', { name: mt(lang, 'backups') });
    // The newest backup is the first row; the list names it by its time, never by its file's name.
    const row = table.getByRole('row').nth(1);
    await expect(table).not.toContainText(newest.name);
    await expect(row.getByRole('cell').nth(0)).toHaveText(MOMENT[lang]);
    await expect(row.getByRole('cell').nth(2)).toHaveText(SIZE[lang]);
    await expect(row).not.toContainText(newest.createdAt);

    // Copy to a folder: a relative path is refused at the field, then a real folder gets the file, once.
    const usb = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-usb-'));
    const copyButton = row.getByRole('button', { name: new RegExp(`^${escape(mt(lang, 'backup_copy_to'))}`) });
    await copyButton.click();
    const dialog = page.getByRole('dialog', { name: new RegExp(escape(mt(lang, 'backup_copy_title', { at: '' }))) });
    const folder = dialog.getByLabel(mt(lang, 'backup_copy_folder'));
    await folder.fill('usb');
    await dialog.getByRole('button', { name: mt(lang, 'backup_copy_do'), exact: true }).click();
    await expect(folder).toHaveAttribute('aria-invalid', 'true');
    await expect(folder).toHaveAccessibleDescription(new RegExp(escape(fieldLabel(lang, 'folder'))));
    await shotsAtTillSizes(page, `settings-words-${lang}-copy-refused`, dialog);
    await folder.fill(usb);
    await dialog.getByRole('button', { name: mt(lang, 'backup_copy_do'), exact: true }).click();
    await expect(dialog).toHaveCount(0);
    const file = path.join(usb, newest.name.replace(/\.kbak$/, '.sqlite'));
    await expect(backups.getByTestId('backup-note')).toHaveText(mt(lang, 'backup_copied', { file }));
    expect(fs.readFileSync(file).subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
    const bytes = fs.statSync(file).size;

    // The same copy again: the file there is never overwritten; the refusal says so at the field.
    fs.writeFileSync(file, 'the manager’s own file');
    await copyButton.click();
    await folder.fill(usb);
    await dialog.getByRole('button', { name: mt(lang, 'backup_copy_do'), exact: true }).click();
    await expect(folder).toHaveAttribute('aria-invalid', 'true');
    await expect(folder).toHaveAccessibleDescription(new RegExp(escape(path.basename(file))));
    expect(fs.readFileSync(file, 'utf8')).toBe('the manager’s own file');
    expect(bytes).toBeGreaterThan(4096);
    await dialog.getByRole('button', { name: mt(lang, 'cancel'), exact: true }).click();
    await shotsAtTillSizes(page, `settings-words-${lang}-backups`, table);
    fs.rmSync(usb, { recursive: true, force: true });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
