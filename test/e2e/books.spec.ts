/**
 * Менаџер → Књиговођа (issue 41, docs/exports.md) in three languages through the browser host and a real core in
 * demo mode: a sale, a refund and an advance with its final sale; the period's export shows its totals, says the
 * journal balances and lists the day; an end before the start is refused at „До“; the Minimax journal downloads in
 * its layout; an account typed with a letter is refused at its field. Screenshots at both till sizes
 * (KASA_SHOTS=<dir>: <dir>/books-<lang>-<width>.png). The e-mail to the bookkeeper against a real SMTP server on an
 * ephemeral port: a bad address refused at its field, the password saved and never shown, a month's delivery the
 * server refused shown with its reason, then sent on „Пошаљи поново сада“.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { OrderView } from '../../shared/domain.ts';
import { formatRsd } from '../../shared/money.ts';
import { fieldLabel } from '../../shared/i18n/fields.ts';
import { EXPORT_WORDS } from '../../shared/i18n/exports.ts';
import { formatDay, isoDay } from '../../renderer/src/dates.ts';
import { expect, test } from './fixtures.ts';
import { inEachLanguage, managerT, openManagerTab, shotsAtTillSizes } from './languages.ts';
import { startSmtpServer } from '../support/smtp-server.ts';

inEachLanguage({ browserLocale: true }, (lang) => {
  test('the period exported: totals, a balanced journal, the Minimax file; bad input at its field', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const t = managerT(lang);
    const sale = (
      await kasa.host.call<OrderView>('sales.checkout', {
        lines: [{ name: 'Хлеб', quantity: 3, unitPrice: 80, labels: ['A'] }],
        payments: [{ type: 'cash', amount: 240 }],
      })
    ).body.value as OrderView;
    await kasa.host.call('refunds.create', {
      orderId: sale.orderId,
      lines: [{ index: 0, quantity: 1 }],
      buyerId: '20:008123456',
      paymentType: 'cash',
      managerPin: '482916',
    });
    const adv = (
      await kasa.host.call<OrderView>('sales.checkout', {
        lines: [{ name: 'Торта', quantity: 1, unitPrice: 1000, labels: ['A'] }],
        payments: [{ type: 'card', amount: 1000 }],
        invoiceType: 'advance',
      })
    ).body.value as OrderView;
    await kasa.host.call('advances.finalize', { orderId: adv.orderId });

    const mgr = await openManagerTab(page, lang, 'tab_books');
    const period = mgr.getByRole('form', { name: t('books_period') });
    const today = isoDay(new Date());
    // An end before the start: refused at „До“, nothing shown.
    await period
      .getByLabel(`${t('date_to')} (${t('date_format')})`, { exact: true })
      .fill(formatDay('2020-01-01', lang));
    await period.getByRole('button', { name: t('books_show') }).click();
    await expect(mgr.getByRole('alert')).toContainText(fieldLabel(lang, 'to'));
    await expect(mgr.getByRole('region', { name: t('books_totals') })).toHaveCount(0);

    await period.getByLabel(`${t('date_to')} (${t('date_format')})`, { exact: true }).fill(formatDay(today, lang));
    await period.getByRole('button', { name: t('books_show') }).click();
    const totals = mgr.getByRole('region', { name: t('books_totals') });
    await expect(totals.getByRole('table', { name: t('books_totals') })).toContainText(formatRsd(116_000));
    await expect(totals.getByRole('status')).toContainText(
      t('books_balanced', { debit: formatRsd(116_000), credit: formatRsd(116_000) }).slice(0, 10),
    );
    await expect(totals.getByRole('table', { name: t('books_days') })).toContainText(formatDay(today, lang));

    const download = page.waitForEvent('download');
    await totals.getByRole('button', { name: t('books_file_minimax') }).click();
    const file = await (await download).path();
    const text = fs.readFileSync(file, 'utf8');
    expect(text.split('\r\n')[0]).toBe('Datum;Opis;Konto;Stranka;Analitika;Radnik;Duguje;Potražuje');

    const accounts = mgr.getByRole('form', { name: t('books_accounts') });
    const cash = accounts.getByLabel(EXPORT_WORDS[lang].accounts.cash, { exact: true });
    await expect(cash).toHaveValue('2430');
    await cash.fill('24x');
    await accounts.getByRole('button', { name: t('books_accounts_save') }).click();
    await expect(accounts.getByRole('alert')).toContainText(EXPORT_WORDS[lang].accounts.cash);
    await cash.fill('2431');
    await accounts.getByRole('button', { name: t('books_accounts_save') }).click();
    await expect(mgr.getByRole('status').first()).toHaveText(t('books_accounts_saved'));

    await shotsAtTillSizes(page, `books-${lang}`, totals);
    await shotsAtTillSizes(page, `books-accounts-${lang}`, accounts);
  });

  test('the e-mail to the bookkeeper: settings, a refused delivery shown, then sent', async ({ kasa }) => {
    const { page } = kasa;
    const t = managerT(lang);
    const smtp = await startSmtpServer({ user: 'knjige', password: 'tajna-7Q' });
    try {
      const mgr = await openManagerTab(page, lang, 'tab_books');
      const form = mgr.getByRole('form', { name: t('books_mail') });
      await form.getByLabel(t('books_mail_host'), { exact: true }).fill('127.0.0.1');
      await form.getByLabel(t('books_mail_port'), { exact: true }).fill(String(smtp.port));
      await form.getByRole('combobox', { name: t('books_mail_security'), exact: true }).selectOption('none');
      await form.getByLabel(t('books_mail_user'), { exact: true }).fill('knjige');
      await form.getByLabel(t('books_mail_password'), { exact: true }).fill('tajna-7Q');
      await form.getByLabel(t('books_mail_from'), { exact: true }).fill('kasa@prodavnica.rs');
      await form.getByLabel(t('books_mail_to'), { exact: true }).fill('knjigovodja@biro');
      await form.getByRole('button', { name: t('books_mail_save') }).click();
      await expect(form.getByRole('alert')).toContainText(fieldLabel(lang, 'mailTo'));
      await form.getByLabel(t('books_mail_to'), { exact: true }).fill('knjigovodja@biro.rs');
      // The month's run queued October (what the monthly pass does in its transaction).
      const db = new Database(path.join(kasa.host.dataDir, 'kasa.sqlite'));
      db.prepare(
        "INSERT INTO export_mails (month, recipients, state, queued_at) VALUES ('2026-10', ?, 'queued', ?)",
      ).run(JSON.stringify(['knjigovodja@biro.rs']), new Date().toISOString());
      db.close();
      await form.getByRole('button', { name: t('books_mail_save') }).click();
      await expect(mgr.getByRole('status').first()).toHaveText(t('books_mail_saved'));
      await expect(form.getByLabel(t('books_mail_password'), { exact: true })).toHaveValue('');
      await expect(mgr.getByText(t('books_mail_password_set'))).toBeVisible();
      expect(await page.content()).not.toContain('tajna-7Q');
      const sends = mgr.getByRole('list', { name: t('books_mail_sends') });
      smtp.failNext(1);
      await mgr.getByRole('button', { name: t('books_mail_retry') }).click();
      await expect(sends.getByRole('alert')).toContainText('451');
      await expect(sends.getByRole('alert')).toContainText(lang === 'en' ? '10/2026' : '10.2026.');
      await shotsAtTillSizes(page, `books-mail-${lang}`, sends);
      await mgr.getByRole('button', { name: t('books_mail_retry') }).click();
      await expect(sends.getByRole('alert')).toHaveCount(0);
      await expect(sends).toContainText('knjigovodja@biro.rs');
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]?.to).toEqual(['knjigovodja@biro.rs']);
    } finally {
      await smtp.close();
    }
  });
});
