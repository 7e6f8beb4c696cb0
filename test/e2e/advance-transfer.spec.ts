/**
 * An advance paid earlier by bank transfer (issue 37 §5, docs/advances.md): in Менаџер → Аванси, choosing
 * „пренос на рачун“ asks for the payment date; a date in the future is refused at that field in words, the day
 * before yesterday is accepted and becomes the receipt's ESIR time. Three languages, screenshots at both till
 * sizes (KASA_SHOTS=<dir>: <dir>/advance-transfer-<lang>-<width>.png).
 */
import { mt } from '../../renderer/src/manager/i18n.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import type { OrderView } from '../../shared/domain.ts';
import { expect, test } from './fixtures.ts';
import { inEachLanguage, openManagerTab, shotsAtTillSizes } from './languages.ts';

const DAY = 86_400_000;

inEachLanguage({ browserLocale: true }, (lang) => {
  test('an advance paid by transfer takes the payment date; a future date is refused at its field', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const mgr = await openManagerTab(page, lang, 'tab_advances');
    const form = mgr.getByRole('form', { name: mt(lang, 'adv_first') });
    await form.getByLabel(mt(lang, 'adv_first_amount')).fill('30000');
    await form.getByLabel(mt(lang, 'adv_item_label')).selectOption('A');
    await expect(form.getByLabel(mt(lang, 'adv_paid_on'))).toHaveCount(0);
    await form.getByLabel(mt(lang, 'adv_further_payment')).selectOption('wireTransfer');
    const paidOn = form.getByLabel(mt(lang, 'adv_paid_on'));
    await paidOn.fill(dayIn(new Date(Date.now() + 3 * DAY)));
    await form.getByRole('button', { name: mt(lang, 'adv_first_btn') }).click();
    await expect(paidOn).toHaveAttribute('aria-invalid', 'true');
    await shotsAtTillSizes(page, `advance-transfer-${lang}`, paidOn);
    const r = await kasa.host.call<{ orders: OrderView[] }>('orders.list', {});
    expect(r.body.value?.orders).toEqual([]);

    const day = dayIn(new Date(Date.now() - 2 * DAY));
    await paidOn.fill(day);
    await form.getByRole('button', { name: mt(lang, 'adv_first_btn') }).click();
    await expect(paidOn).toHaveValue('');
    await expect(paidOn).not.toHaveAttribute('aria-invalid', 'true');
    const [y, m, d] = day.split('-');
    await expect
      .poll(async () => {
        const list = await kasa.host.call<{ orders: OrderView[] }>('orders.list', {});
        const id = list.body.value?.orders[0]?.orderId ?? 0;
        return (await kasa.host.call<OrderView>('orders.get', { orderId: id })).body.value?.receipt?.journal ?? '';
      })
      .toMatch(new RegExp(`${d}\\.${m}\\.${y}\\. 1[12]:00:00`));
  });
});
