/**
 * Manager flows through the browser host and the real (embedded) sandbox gateway: a partial refund of a
 * fiscalized sale, a refund of a sale still queued during an outage, advance then finalize, a fiscal
 * copy and an e-mail, and a cashier's PIN refused for a refund.
 */
import type { BackupsView } from '../../shared/contract/backups.ts';
import type { OrderView } from '../../shared/domain.ts';
import { explainGatewayError } from '../../shared/gateway-errors.ts';
import type { Locator, Page } from '@playwright/test';
import { expect, test, type KasaFixture } from './fixtures.ts';
import { addCashier, login, openManager } from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { shotsAtTillSizes, wholePageShots } from './languages.ts';

interface LedgerReceipt {
  orderNumber: string;
  invoiceNumber: string;
  invoiceType: string;
  transactionType: string;
  referentDocumentNumber: string | null;
}

const SALE = {
  lines: [
    { name: 'Хлеб', quantity: 3, unitPrice: 80, labels: ['A'] },
    { name: 'Млеко', quantity: 2, unitPrice: 150, labels: ['A'] },
    { name: 'Уље', quantity: 1, unitPrice: 250, labels: ['A'] },
  ],
  payments: [{ type: 'cash', amount: 790 }],
};

async function ledger(kasa: KasaFixture): Promise<LedgerReceipt[]> {
  const res = await fetch(`${kasa.sandboxUrl}/__sandbox/ledger`);
  return ((await res.json()) as { receipts: LedgerReceipt[] }).receipts;
}

/** A private person's buyer ID on a refund: code 20, the ID card number, in the type selector. */
async function buyerIdCard(mgr: Locator): Promise<void> {
  await mgr.getByRole('combobox', { name: 'Врста ИД купца' }).selectOption('20');
  await mgr.getByLabel('ИД купца (број)').fill('008123456');
}

/**
 * A refund sent from the manager's „Поврат“ tab (`mgr`): the sale `orderId` chosen, `quantities` to take back by
 * line name, the buyer's ID card, the PIN `pin` typed.
 */
async function refund(
  mgr: Locator,
  orderId: number,
  quantities: Record<string, string>,
  pin: string = MANAGER_PIN,
): Promise<void> {
  await mgr.getByLabel('Последње продаје').selectOption(String(orderId));
  for (const [name, quantity] of Object.entries(quantities)) {
    await mgr.getByLabel(`Количина за поврат: ${name}`).fill(quantity);
  }
  await buyerIdCard(mgr);
  await mgr.getByLabel('PIN менаџера').fill(pin);
  await mgr.getByRole('button', { name: 'Изврши поврат' }).click();
}

async function checkout(
  kasa: KasaFixture,
  input: unknown,
): Promise<{ orderId: number; orderNumber: string; state: string; receipt?: { invoiceNumber: string } }> {
  const r = await kasa.host.call<{
    orderId: number;
    orderNumber: string;
    state: string;
    receipt?: { invoiceNumber: string };
  }>('sales.checkout', input);
  if (!r.body.value) throw new Error(JSON.stringify(r.body.error));
  return r.body.value;
}

/** The order as the till has it now. */
async function orderOf(kasa: KasaFixture, orderId: number): Promise<OrderView | undefined> {
  return (await kasa.host.call<OrderView>('orders.get', { orderId })).body.value;
}

/** Waits for the order to be fiscalized (the outbox sends in the background). */
async function fiscalized(kasa: KasaFixture, orderId: number): Promise<void> {
  await expect.poll(async () => (await orderOf(kasa, orderId))?.state).toBe('fiscalized');
}

/**
 * A sale the gateway's reply says is another sale's (1.00 more), and so does its archive `archiveTimes` times:
 * a reply alone parks nothing, the archive is asked first (fiscalization-lookup + archive).
 */
async function parkedAsAnotherSale(
  kasa: KasaFixture,
  archiveTimes: number,
): Promise<Awaited<ReturnType<typeof checkout>>> {
  await kasa.sandbox('faults', {
    rules: [
      { match: 'POST /receipt/', action: 'wrong_total', times: 1 },
      { match: 'GET /archive/receipts/', action: 'wrong_total', times: archiveTimes },
    ],
  });
  const sale = await checkout(kasa, SALE);
  expect(sale.state).toBe('needs_attention');
  return sale;
}

/** Logged in, the manager's list of what needs attention opened from the status bar's count; the order's item. */
async function attentionItem(page: Page, orderNumber: string): Promise<{ mgr: Locator; item: Locator }> {
  await login(page);
  await page.getByRole('status', { name: 'Статус' }).getByRole('button', { name: 'Потребна пажња: 1' }).click();
  const mgr = page.getByRole('dialog', { name: 'Менаџер' });
  return { mgr, item: mgr.getByRole('listitem', { name: `Поруџбина ${orderNumber}` }) };
}

test('a manager refunds two items of a fiscalized sale', async ({ kasa }) => {
  const sale = await checkout(kasa, SALE);
  expect(sale.state).toBe('fiscalized');
  const mgr = await openManager(kasa.page, 'Поврат');
  // The fixture changed the first-run PIN: no warning about 0000 any more.
  await expect(mgr.getByRole('note').filter({ hasText: '0000' })).toHaveCount(0);
  await refund(mgr, sale.orderId, { Хлеб: '1', Млеко: '2' });
  await expect(mgr.getByTestId('mgr-result-state')).toHaveText('ФИСКАЛИЗОВАН');
  const refunds = (await ledger(kasa)).filter((r) => r.transactionType === 'refund');
  expect(refunds).toEqual([expect.objectContaining({ referentDocumentNumber: sale.receipt?.invoiceNumber })]);

  // What is left: 2 bread, 0 milk. Refunding 1 milk more is refused, naming the line.
  await refund(mgr, sale.orderId, { Млеко: '1' });
  await expect(mgr.getByRole('alert')).toContainText('Млеко');
});

test('offline: a manager refunds a sale that is still queued; both are issued in order when the gateway returns', async ({
  kasa,
}) => {
  await kasa.sandbox('offline', { offline: true });
  const sale = await checkout(kasa, SALE);
  expect(sale.state).toBe('queued');
  const mgr = await openManager(kasa.page, 'Поврат');
  await refund(mgr, sale.orderId, { Уље: '1' });
  await expect(mgr.getByTestId('mgr-result-state')).toHaveText('НИЈЕ ЈОШ ФИСКАЛИЗОВАН');
  await expect(mgr.getByRole('status')).toHaveText('Чека да оригинал буде фискализован.');
  expect(await ledger(kasa)).toEqual([]);

  await kasa.sandbox('offline', { offline: false });
  await kasa.host.call('sync.now');
  await expect.poll(async () => (await ledger(kasa)).length).toBe(2);
  const [first, second] = await ledger(kasa);
  expect(first).toMatchObject({ orderNumber: sale.orderNumber, transactionType: 'sale' });
  expect(second).toMatchObject({ transactionType: 'refund', referentDocumentNumber: first?.invoiceNumber });
});

test('advance then finalize: the advance refund and the final receipt are both shown', async ({ kasa }) => {
  const advance = await checkout(kasa, { ...SALE, invoiceType: 'advance' });
  expect(advance.state).toBe('fiscalized');
  const mgr = await openManager(kasa.page, 'Аванси');
  await mgr.getByRole('button', { name: `Изабери ${advance.orderNumber}` }).click();
  // The final items default to the advance's; the advances cover them all: nothing is left to pay.
  await expect(mgr.getByTestId('adv-sums')).toContainText('Остатак за плаћање: 0,00');
  await mgr.getByRole('button', { name: 'Издај коначни рачун' }).click();
  await expect(mgr.getByTestId('mgr-result-state')).toHaveText('ФИСКАЛИЗОВАН');
  await expect(mgr.getByRole('region', { name: 'Резултат' }).locator('pre')).toHaveCount(2);
  const types = (await ledger(kasa)).map((r) => `${r.invoiceType}/${r.transactionType}`);
  expect(types).toEqual(['advance/sale', 'advance/refund', 'normal/sale']);
  await expect(mgr.getByRole('button', { name: `Изабери ${advance.orderNumber}` })).toHaveCount(0);
});

test('#21: a deposit, a further advance and the final receipt with the rest paid', async ({ kasa }) => {
  const mgr = await openManager(kasa.page, 'Аванси');
  // The deposit is taken on the advances tab: 30 % of the sofa, one advance line of label A.
  const firstForm = mgr.getByRole('form', { name: 'Нови аванс (прва уплата)' });
  await firstForm.getByLabel('Опис аванса').fill('Аванс за софу');
  await firstForm.getByLabel('Примљени износ').fill('3000');
  await firstForm.getByLabel('Ознака').selectOption('A');
  await firstForm.getByRole('button', { name: 'Издај авансни рачун' }).click();
  await expect(mgr.getByTestId('mgr-result-state')).toHaveText('ФИСКАЛИЗОВАН');
  const [depositReceipt] = await ledger(kasa);
  expect(depositReceipt).toMatchObject({ invoiceType: 'advance', transactionType: 'sale' });
  const deposit = {
    orderNumber: depositReceipt?.orderNumber ?? '',
    receipt: { invoiceNumber: depositReceipt?.invoiceNumber ?? '' },
  };
  await mgr.getByRole('button', { name: `Изабери ${deposit.orderNumber}` }).click();
  await mgr.getByLabel('Износ новог аванса').fill('2000');
  await mgr.getByRole('button', { name: 'Издај нови аванс' }).click();
  await expect(mgr.getByTestId('mgr-result-state')).toHaveText('ФИСКАЛИЗОВАН');
  const second = (await ledger(kasa))[1];
  expect(second).toMatchObject({
    invoiceType: 'advance',
    transactionType: 'sale',
    referentDocumentNumber: deposit.receipt?.invoiceNumber,
  });
  // Only the chain's last advance is listed, with the chain and what it paid.
  await expect(mgr.getByRole('button', { name: /^Изабери / })).toHaveCount(1);
  await expect(mgr.getByRole('list', { name: 'Низ аванса' }).getByRole('listitem')).toHaveCount(2);
  await mgr.getByRole('button', { name: /^Изабери / }).click();
  await mgr.getByLabel('Назив 1').fill('Софа');
  await mgr.getByLabel('Цена 1').fill('10000');
  await expect(mgr.getByTestId('adv-sums')).toContainText('Плаћено авансима: 5.000,00');
  await expect(mgr.getByTestId('adv-sums')).toContainText('Остатак за плаћање: 5.000,00');
  // Screenshots of the filled final receipt for review (kept when KASA_SHOTS names a folder).
  await wholePageShots(kasa.page, 'advances-final');
  await mgr.getByRole('button', { name: 'Издај коначни рачун' }).click();
  await expect(mgr.getByTestId('mgr-result-state')).toHaveText('ФИСКАЛИЗОВАН');
  const receipts = await ledger(kasa);
  expect(receipts.map((r) => `${r.invoiceType}/${r.transactionType}`)).toEqual([
    'advance/sale',
    'advance/sale',
    'advance/refund',
    'normal/sale',
  ]);
  expect(receipts[2]?.referentDocumentNumber).toBe(second?.invoiceNumber);
  expect(receipts[3]?.referentDocumentNumber).toBe(receipts[2]?.invoiceNumber);

  // The final sale is refunded like any sale: it is among the recent sales of the refund tab.
  await mgr.getByRole('tab', { name: 'Поврат' }).click();
  const finalSale = await kasa.host.call<{ orders: { orderId: number; kind: string }[] }>('orders.list', { limit: 5 });
  const finalId = finalSale.body.value?.orders.find((o) => o.kind === 'finalize')?.orderId;
  await mgr.getByLabel('Последње продаје').selectOption(String(finalId));
  await expect(mgr.getByLabel('Количина за поврат: Софа')).toBeVisible();
  await wholePageShots(kasa.page, 'refund-final-sale');
});

test('a fiscal copy and an e-mailed receipt from the archive', async ({ kasa }) => {
  const sale = await checkout(kasa, SALE);
  const mgr = await openManager(kasa.page, 'Архива');
  await mgr.getByRole('button', { name: `Детаљи: ${sale.orderNumber}` }).click();
  const detail = mgr.getByRole('region', { name: `Рачун ${sale.receipt?.invoiceNumber}` });
  await expect(detail.getByLabel('Журнал рачуна', { exact: true })).toContainText('ФИСКАЛНИ РАЧУН');
  await expect(detail.getByTestId('archive-processor')).toHaveText('Потписао: ПФР преко интернета');
  // Without the manager's PIN the core refuses the copy; with it, it is issued.
  await detail.getByRole('button', { name: 'Фискална копија' }).click();
  await expect(detail.getByRole('alert')).toContainText('PIN');
  expect((await ledger(kasa)).filter((r) => r.invoiceType === 'copy')).toEqual([]);
  await detail.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await detail.getByRole('button', { name: 'Фискална копија' }).click();
  await expect(detail.getByTestId('mgr-result-state')).toHaveText('ФИСКАЛИЗОВАН');
  await expect(detail.getByRole('region', { name: 'Резултат' })).toContainText('ОВО НИЈЕ ФИСКАЛНИ РАЧУН');
  const copy = (await ledger(kasa)).find((r) => r.invoiceType === 'copy');
  expect(copy?.referentDocumentNumber).toBe(sale.receipt?.invoiceNumber);

  await detail.getByLabel('Е-пошта купца').fill('kupac@example.com');
  await detail.getByRole('button', { name: 'Пошаљи е-поштом' }).click();
  await expect(detail.getByRole('status')).toHaveText('Е-порука је послата.');
  const res = await fetch(`${kasa.sandboxUrl}/__sandbox/emails`);
  const { emails } = (await res.json()) as { emails: { email: string; invoiceNumber: string }[] };
  expect(emails).toEqual([
    expect.objectContaining({ email: 'kupac@example.com', invoiceNumber: sale.receipt?.invoiceNumber }),
  ]);
});

test('a cashier without a manager PIN is refused a refund', async ({ kasa }) => {
  await addCashier(kasa);
  const sale = await checkout(kasa, SALE);
  const mgr = await openManager(kasa.page, 'Поврат');
  await refund(mgr, sale.orderId, { Хлеб: '1' }, '1111');
  await expect(mgr.getByRole('alert')).toContainText('Потребно је одобрење менаџера');
  expect((await ledger(kasa)).filter((r) => r.transactionType === 'refund')).toEqual([]);
});

test('needs attention: the status bar count opens the list with the explanation and the label fix', async ({
  kasa,
}) => {
  const { page } = kasa;
  // On a demo account an advance with label Ж is rejected (ERR_00302) and waits for a manager.
  const advance = await checkout(kasa, {
    lines: [{ name: 'Торта', quantity: 1, unitPrice: 1000, labels: ['Ж'] }],
    payments: [{ type: 'cash', amount: 1000 }],
    invoiceType: 'advance',
  });
  expect(advance.state).toBe('needs_attention');
  const order = await orderOf(kasa, advance.orderId);
  if (!order?.lastError) throw new Error('no gateway error on the order');
  const { mgr, item } = await attentionItem(page, advance.orderNumber);
  await expect(mgr.getByRole('tab', { name: 'Потребна пажња' })).toHaveAttribute('aria-selected', 'true');
  await expect(item).toContainText(explainGatewayError(order.lastError, 'sr-Cyrl').title);
  await item.getByLabel('Ознака Ж постаје').selectOption('A');
  await item.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await item.getByRole('button', { name: `Исправи ознаке и пошаљи: ${advance.orderNumber}` }).click();
  await expect(mgr.getByRole('status')).toHaveText(
    `Поруџбина ${advance.orderNumber} је поново у реду за фискализацију.`,
  );
  await kasa.host.call('sync.now');
  await fiscalized(kasa, advance.orderId);
  expect((await ledger(kasa)).map((r) => `${r.invoiceType}/${r.transactionType}`)).toEqual(['advance/sale']);
});

test("needs attention: another sale's receipt parks the sale; a manager's PIN re-issues it under a new number", async ({
  kasa,
}) => {
  const { page } = kasa;
  // The gateway answers with a receipt of the right order number but 1.00 more: not this sale's receipt. Its
  // archive is asked before the sale is parked, and again before a new number is issued: another total, twice.
  const sale = await parkedAsAnotherSale(kasa, 2);
  expect(sale.receipt).toBeUndefined();
  const order = await orderOf(kasa, sale.orderId);
  if (!order?.lastError) throw new Error('no mismatch on the order');
  const { mgr, item } = await attentionItem(page, sale.orderNumber);
  await expect(item).toContainText(explainGatewayError(order.lastError, 'sr-Cyrl').title);
  // Resending the same number would only bring the other receipt back: the fix offered is a new number.
  await expect(item.getByRole('button', { name: `Пошаљи поново без измена: ${sale.orderNumber}` })).toHaveCount(0);
  const reissue = item.getByRole('button', { name: `Издај под новим бројем: ${sale.orderNumber}` });
  await item.getByLabel('PIN менаџера').fill('9999');
  await reissue.click();
  await expect(item.getByRole('alert')).toBeVisible();
  expect((await orderOf(kasa, sale.orderId))?.orderNumber).toBe(sale.orderNumber);
  await item.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await reissue.click();
  await expect(mgr.getByRole('status')).toContainText(
    `Продаја ${sale.orderNumber} је поново у реду за фискализацију под бројем`,
  );
  await kasa.host.call('sync.now');
  await fiscalized(kasa, sale.orderId);
  const done = await orderOf(kasa, sale.orderId);
  expect(done?.orderNumber).not.toBe(sale.orderNumber);
  expect(done?.receipt?.totalPara).toBe(79_000);
  expect((await ledger(kasa)).map((r) => r.orderNumber)).toEqual([sale.orderNumber, done?.orderNumber]);
});

test('backups: the list with the integrity check, and a restore staged for the next start', async ({ kasa }) => {
  const mgr = await openManager(kasa.page, 'Подешавања');
  const backups = mgr.getByRole('region', { name: 'Резервне копије базе' });
  // The check and the day's backup run in the background after start-up (docs/history.md): wait for them.
  await expect
    .poll(
      async () =>
        (await kasa.host.call<BackupsView>('backups.list', { managerPin: MANAGER_PIN })).body.value?.backups.length ??
        0,
    )
    .toBeGreaterThan(0);
  await backups.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await backups.getByRole('button', { name: 'Прикажи резервне копије' }).click();
  await expect(backups.getByTestId('integrity')).toHaveText('Провера исправности базе при покретању: исправна.');
  const list = (await kasa.host.call<BackupsView>('backups.list', { managerPin: MANAGER_PIN })).body.value;
  const name = list?.backups[0]?.name;
  if (!name) throw new Error('no backup on a fresh till');
  // A fresh till's first daily backup is a full restore point (docs/history.md), named so in the list.
  // The list speaks in dates, never the file's name (an ISO-like stamp); the only backup is the newest row.
  await expect(backups.getByRole('row').nth(1)).toContainText('дневна, пуна');
  await expect(backups).not.toContainText(name);
  const confirm = kasa.page.getByRole('dialog', { name: 'Враћање резервне копије' });
  // Escape in the confirmation closes only the confirmation, not the manager screen.
  await backups.getByRole('button', { name: /^Врати: \d\d\.\d\d\.\d{4}\. \d\d:\d\d$/ }).click();
  await expect(confirm).toBeVisible();
  await kasa.page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(backups).toBeVisible();
  await backups.getByRole('button', { name: /^Врати: \d\d\.\d\d\.\d{4}\. \d\d:\d\d$/ }).click();
  await expect(confirm).toContainText('мора да се поново покрене');
  await confirm.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await confirm.getByRole('button', { name: 'Врати копију' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(backups.getByRole('status').filter({ hasText: 'Поново покрените Kasa' })).toContainText(name);
});

test('the manager screens are readable: dark text on their light panel (not the header it opens from)', async ({
  kasa,
}) => {
  const mgr = await openManager(kasa.page, 'Подешавања');
  const colors = await mgr.getByText('Ознака касе', { exact: true }).evaluate((el) => {
    const panel = el.closest('[role="dialog"]') as HTMLElement;
    return { text: getComputedStyle(el).color, panel: getComputedStyle(panel).backgroundColor };
  });
  const luminance = (rgb: string): number => {
    const [r = 0, g = 0, b = 0] = (rgb.match(/\d+/g) ?? []).map(Number);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  expect(luminance(colors.panel) - luminance(colors.text)).toBeGreaterThan(120);
});

test('needs attention (#21): a new number is refused when lookup + archive show the receipt is this sale’s; the sale is fiscalized with it', async ({
  kasa,
}) => {
  const { page } = kasa;
  // The send's reply and the first archive read name another total (a confused proxy): parked.
  const sale = await parkedAsAnotherSale(kasa, 1);
  const { mgr, item } = await attentionItem(page, sale.orderNumber);
  await item.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await item.getByRole('button', { name: `Издај под новим бројем: ${sale.orderNumber}` }).click();
  // The archive, asked again, holds this sale's own receipt: no new number, the sale is settled with it.
  await expect(mgr.getByRole('status')).toContainText('је рачун ове продаје');
  const done = await orderOf(kasa, sale.orderId);
  await expect(mgr.getByRole('status')).toHaveText(
    `Рачун ${done?.receipt?.invoiceNumber ?? ''} под бројем ${sale.orderNumber} је рачун ове продаје (потврђено упитом и архивом фискалног сервиса): продаја је фискализована њиме и не издаје се поново.`,
  );
  await expect(item).toHaveCount(0);
  expect(done?.state).toBe('fiscalized');
  expect(done?.orderNumber).toBe(sale.orderNumber);
  expect((await ledger(kasa)).map((r) => r.orderNumber)).toEqual([sale.orderNumber]);
  await shotsAtTillSizes(page, 'reissue-refused');
});

test('a report with its charts rendered', async ({ kasa }) => {
  // Two sales paid in cash and by card, and a refund of part of the first: refunds negative everywhere.
  const sale = await checkout(kasa, SALE);
  await checkout(kasa, {
    lines: [{ name: 'Сок', quantity: 1, unitPrice: 210, labels: ['A'] }],
    payments: [{ type: 'card', amount: 210 }],
  });
  const mgr = await openManager(kasa.page, 'Поврат');
  await refund(mgr, sale.orderId, { Хлеб: '1' });
  await expect(mgr.getByTestId('mgr-result-state')).toHaveText('ФИСКАЛИЗОВАН');

  await mgr.getByRole('tab', { name: 'Извештај' }).click();
  await mgr.getByRole('button', { name: 'Прикажи' }).click();
  const overview = mgr.getByRole('table', { name: 'Промет' });
  await expect(overview.getByRole('row', { name: /^Рефундације/ })).toContainText('-80,00 дин.');
  // 790 + 210 − 80 with VAT: the gross; VAT and net beside it, and the previous period's column.
  await expect(overview.getByRole('row', { name: /^Укупно са ПДВ \(бруто\)/ })).toContainText('920,00 дин.');
  await expect(overview.getByRole('row', { name: /^Без ПДВ \(нето\)/ })).toBeVisible();
  await expect(overview.getByRole('columnheader', { name: 'Претходни период' })).toBeVisible();
  const bar = (chart: string, name: RegExp) => mgr.getByRole('figure', { name: chart }).getByRole('img', { name });
  await expect(bar('Промет по сату', /^\d\d:00, Овај период: 920,00 дин\.$/)).toHaveCount(1);
  await expect(bar('Промет по начину плаћања', /^Готовина, Овај период: 710,00 дин\.$/)).toHaveCount(1);
  await expect(bar('Промет по начину плаћања', /^Платна картица, Овај период: 210,00 дин\.$/)).toHaveCount(1);
  await expect(bar('Промет по пореској ознаци', /^A \d+%, Овај период: 920,00 дин\.$/)).toHaveCount(1);
  await expect(bar('Промет по касиру', /, Овај период: 920,00 дин\.$/)).toHaveCount(1);
  expect(await mgr.textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}T|\bcash\b/);

  // The receipts list: three rows (the refund negative), then the total the screen shows.
  const download = kasa.page.waitForEvent('download');
  await mgr.getByRole('button', { name: 'Рачуни (CSV)' }).click();
  const rows = (await (await download).createReadStream()).toArray();
  const csv = Buffer.concat((await rows) as Buffer[])
    .toString('utf8')
    .trimEnd()
    .split('\r\n');
  expect(csv).toHaveLength(5);
  // For a Serbian spreadsheet: `;` and the decimal comma (docs/manager.md, "Reports").
  expect(csv[3]).toContain('"Промет — рефундација";"Готовина"');
  expect(csv[3]).toContain(';-80,00;');
  expect(csv[4]).toMatch(/^"укупно";;;;;;920,00;/);
  await shotsAtTillSizes(kasa.page, 'report-till', mgr.getByRole('table', { name: 'Промет' }));
  await shotsAtTillSizes(kasa.page, 'report-till-charts', mgr.getByRole('figure', { name: 'Промет по касиру' }));
});
