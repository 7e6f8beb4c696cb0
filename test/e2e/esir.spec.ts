/**
 * The ESIR number (issue 37 §5, docs/lpfr.md "The ESIR's own identity") in Менаџер → Подешавања → Локални ПФР: a
 * malformed IB is refused at its field in words, a good one is saved and shown as „IB/верзија“, in all three
 * languages, with screenshots at both till sizes (KASA_SHOTS=<dir>: <dir>/esir-<lang>-<width>.png).
 */
import fs from 'node:fs';
import path from 'node:path';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { mt } from '../../renderer/src/manager/i18n.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { expect, test } from './fixtures.ts';

const SIZES = [
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
] as const;

for (const lang of ['sr-Cyrl', 'sr-Latn', 'en'] as const) {
  test.describe(lang, () => {
    test.use({ kasaEnv: { KASA_LANG: lang } });

    test('the manager enters the ESIR number from the approval; a malformed IB is refused at its field', async ({
      kasa,
    }, testInfo) => {
      const { page } = kasa;
      const ui = uiMessages[lang];
      await page
        .getByRole('main', { name: ui.login.title })
        .getByLabel(ui.login.pin, { exact: true })
        .fill(MANAGER_PIN);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('combobox', { name: ui.sale.search })).toBeVisible();
      await page.getByRole('button', { name: mt(lang, 'open') }).click();
      const mgr = page.getByRole('dialog', { name: mt(lang, 'title') });
      await mgr.getByRole('tab', { name: mt(lang, 'tab_settings') }).click();
      const section = mgr.getByRole('region', { name: mt(lang, 'lpfr') });
      await expect(section.getByTestId('esir-number')).toHaveText(mt(lang, 'esir_number_none'));
      const form = section.getByRole('form', { name: mt(lang, 'esir_number') });
      const id = form.getByLabel(mt(lang, 'esir_id'));
      await id.fill('10a6');
      await form.getByLabel(mt(lang, 'esir_version')).fill('1.2');
      await form.getByLabel(mt(lang, 'manager_pin')).fill(MANAGER_PIN);
      await form.getByRole('button', { name: mt(lang, 'esir_save') }).click();
      await expect(id).toHaveAttribute('aria-invalid', 'true');
      await expect(id).toHaveAccessibleDescription(/1060/);
      await expect(section.getByTestId('esir-number')).toHaveText(mt(lang, 'esir_number_none'));
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await form.getByRole('button', { name: mt(lang, 'esir_save') }).scrollIntoViewIfNeeded();
        const name = `esir-${lang}-error-${size.width}.png`;
        await page.screenshot({ path: testInfo.outputPath(name) });
        const dir = process.env['KASA_SHOTS'];
        if (dir) {
          fs.mkdirSync(dir, { recursive: true });
          fs.copyFileSync(testInfo.outputPath(name), path.join(dir, name));
        }
      }
      await id.fill('1060');
      await form.getByLabel(mt(lang, 'manager_pin')).fill(MANAGER_PIN);
      await form.getByRole('button', { name: mt(lang, 'esir_save') }).click();
      await expect(section.getByTestId('esir-number')).toHaveText('1060/1.2');
      await expect(section.getByRole('status')).toHaveText(mt(lang, 'esir_saved', { number: '1060/1.2' }));
    });
  });
}
