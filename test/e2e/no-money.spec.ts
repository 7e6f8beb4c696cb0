/**
 * Through the browser host: a proforma and a training receipt take no money. The
 * payment screen shows no amount inputs and no change, and the order is issued with one nominal payment.
 * With KASA_SHOTS set, the screen is photographed at 1024x768 and 1366x768.
 */
import { expect, test, type KasaFixture } from './fixtures.ts';
import { callOk, lastOrder, pieceItem, readyToSell as ready, rsd, scan } from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { shotsAtTillSizes } from './languages.ts';

const BREAD = pieceItem('1001');

const shoot = (kasa: KasaFixture, name: string): Promise<void> => shotsAtTillSizes(kasa.page, name);

for (const mode of ['proforma', 'training'] as const) {
  test(`${mode}: the payment screen asks for no money; the order carries one nominal payment`, async ({ kasa }) => {
    if (mode === 'training') {
      await callOk(kasa, 'settings.update', { managerPin: MANAGER_PIN, trainingMode: true });
    }
    const page = await ready(kasa);
    await scan(page, BREAD.barcode);
    // The scan is looked up asynchronously: F12 on a cart the line has not reached yet opens nothing.
    await expect(page.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara));
    await page.keyboard.press('F12');
    const screen = page.getByRole('main', { name: 'Плаћање' });
    await expect(screen).toBeVisible();
    if (mode === 'proforma') await page.getByLabel('Врста рачуна').selectOption('proforma');
    await expect(page.getByLabel('Врста рачуна')).toHaveValue(mode);
    await expect(page.getByTestId('no-money')).toBeVisible();
    await expect(screen.getByLabel('Готовина')).toHaveCount(0);
    await expect(screen.getByRole('status', { name: 'Кусур' })).toHaveCount(0);
    await expect(page.getByTestId('change')).toHaveCount(0);
    await shoot(kasa, `payment-${mode}`);
    await page.keyboard.press('F12');
    await expect(page.getByTestId('receipt-state')).toContainText('НИЈЕ ФИСКАЛНИ РАЧУН');
    const order = await lastOrder(kasa);
    expect(order.invoiceType).toBe(mode);
    expect(order.changePara).toBe(0);
    expect(order.payments).toEqual([{ type: 'other', amountPara: order.totalPara }]);
  });
}
