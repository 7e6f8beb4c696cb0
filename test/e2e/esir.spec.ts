/**
 * The ESIR number (issue 37 §5, docs/lpfr.md "The ESIR's own identity") in Менаџер → Подешавања → Локални ПФР: a
 * malformed IB is refused at its field in words, a good one is saved and shown as „IB/верзија“, in all three
 * languages, with screenshots at both till sizes (KASA_SHOTS=<dir>: <dir>/esir-<lang>-<width>.png).
 */
import { mt } from '../../renderer/src/manager/i18n.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { expect, test } from './fixtures.ts';
import { inEachLanguage, openManagerTab, shotsAtTillSizes } from './languages.ts';

inEachLanguage((lang) => {
  test('the manager enters the ESIR number from the approval; a malformed IB is refused at its field', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const mgr = await openManagerTab(page, lang, 'tab_settings');
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
    await shotsAtTillSizes(page, `esir-${lang}-error`, form.getByRole('button', { name: mt(lang, 'esir_save') }));
    await id.fill('1060');
    await form.getByLabel(mt(lang, 'manager_pin')).fill(MANAGER_PIN);
    await form.getByRole('button', { name: mt(lang, 'esir_save') }).click();
    await expect(section.getByTestId('esir-number')).toHaveText('1060/1.2');
    await expect(section.getByRole('status')).toHaveText(mt(lang, 'esir_saved', { number: '1060/1.2' }));
  });
});
