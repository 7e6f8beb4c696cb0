/**
 * Through the browser host: a sale rung before a tax-rate change and issued after it
 * is listed on the manager's needs-attention tab with the explanation; the report shows the VAT of the
 * receipts per label and rate, and the count. `KASA_SHOTS` set: screenshots at 1024×768 and 1366×768.
 */
import type { OrderView } from '../../shared/domain.ts';
import { expect, test } from './fixtures.ts';
import { openManager } from './counter-support.ts';
import { wholePageShots } from './languages.ts';
import { rateChangeGroup } from '../support/tax-groups.ts';

test('a sale issued under another tax group is listed for the manager; the report shows VAT by rate and the count', async ({
  kasa,
}) => {
  const { page } = kasa;
  await kasa.sandbox('offline', { offline: true });
  const sale = (
    await kasa.host.call<{ orderId: number; orderNumber: string; state: string }>('sales.checkout', {
      lines: [
        { name: 'Хлеб', quantity: 2, unitPrice: 120, labels: ['A'] },
        { name: 'Пакет', quantity: 1, unitPrice: 200, labels: ['A', 'E'] },
      ],
      payments: [{ type: 'cash', amount: 440 }],
    })
  ).body.value;
  if (!sale) throw new Error('no sale');
  await kasa.sandbox('tax-groups', { group: rateChangeGroup(new Date(Date.now() - 1000).toISOString(), 1) });
  await kasa.sandbox('offline', { offline: false });
  await kasa.host.call('sync.now');
  await expect
    .poll(async () => (await kasa.host.call<OrderView>('orders.get', { orderId: sale.orderId })).body.value?.state)
    .toBe('fiscalized');

  const mgr = await openManager(page, 'Потребна пажња');
  const list = mgr.getByRole('region', { name: 'Рачуни издати по другој пореској групи' });
  await expect(list).toContainText(sale.orderNumber);
  await expect(list).toContainText('по пореској групи 6, а рачун је потписан по групи 7');
  await wholePageShots(page, 'tax-group-attention');

  await mgr.getByRole('tab', { name: 'Извештај' }).click();
  await mgr.getByRole('button', { name: 'Прикажи' }).click();
  const byRate = mgr.getByRole('table', { name: 'ПДВ по ознаци и стопи (из рачуна)' });
  // 240.00 + 200.00 under A at 12 %: 25.71 + 21.43; 200.00 under E at 6 %: 11.32.
  await expect(byRate).toContainText('A 12%');
  await expect(byRate).toContainText('47,14');
  await expect(byRate).toContainText('E 6%');
  await expect(byRate).toContainText('11,32');
  await expect(byRate.getByRole('row', { name: /Укупно ПДВ/ })).toContainText('58,46');
  await expect(mgr.getByRole('row', { name: /Издато по другој пореској групи/ })).toContainText('1');
  await wholePageShots(page, 'tax-group-report');
});
