/**
 * The counter and what the printer says, against the fake Epson-class printer (test/printer/fake-epson.ts,
 * real TCP on an ephemeral port) set as the till's printer: paper out, cover open and paper near its end
 * show in the status bar within the poll (10 s) in Cyrillic, Latin and English and go once fixed; a power
 * cycle during a receipt asks „Да ли је рачун одштампан?“ with the receipt's number in each language, and
 * „Не, одштампај поново“ puts the receipt on paper exactly once (decoded with the project's decoder).
 */
import type { Page } from '@playwright/test';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import type { OrderView } from '../../shared/domain.ts';
import { startFakeEpson, type FakeEpson } from '../printer/fake-epson.ts';
import { expect, test, type KasaFixture } from './fixtures.ts';
import { callOk, login } from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';

const PROFILE = 'epson-tm-t88v';

// The fake printer listens on loopback: a destination the installer allows explicitly.
// The idle printer is asked every second instead of every 5 s, so each state change shows within the expect's wait.
test.use({ kasaEnv: { KASA_PRINTER_ALLOW_LOOPBACK: '1', KASA_PRINTER_POLL_MS: '1000' } });

/** The fake printer, with a power cut armed for the next job (after its first 100 bytes). */
async function printer(): Promise<{ fake: FakeEpson; cutNextJob(): void }> {
  let armed = false;
  const fake = await startFakeEpson({
    onBytes: (n, p) => {
      if (armed && n > 100) {
        armed = false;
        p.powerCycle();
      }
    },
  });
  return { fake, cutNextJob: () => void (armed = true) };
}

async function setPrinter(kasa: KasaFixture, port: number): Promise<void> {
  await callOk(kasa, 'printer.configure', {
    uri: `tcp://127.0.0.1:${port}`,
    profileId: PROFILE,
    autoPrint: true,
    approval: { managerPin: MANAGER_PIN },
  });
}

/** A cash sale through the core (the counter is logged in); its receipt prints itself once fiscalized. */
async function sell(kasa: KasaFixture): Promise<OrderView> {
  const sale = (
    await kasa.host.call<{ orderId: number }>('sales.checkout', {
      lines: [{ name: 'Хлеб', quantity: 1, unitPrice: 120, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 120 }],
    })
  ).body.value;
  if (!sale) throw new Error('no sale');
  let order: OrderView | undefined;
  await expect
    .poll(async () => {
      order = (await kasa.host.call<OrderView>('orders.get', { orderId: sale.orderId })).body.value;
      return order?.receipt?.journal ? order.state : null;
    })
    .toBe('fiscalized');
  return order as OrderView;
}

/** How many times the receipt came out whole: its journal's first line followed by all the others. */
function copiesOnPaper(fake: FakeEpson, order: OrderView): number {
  const d = decodeEscPos(fake.paper(), { codePages: codePageNumbers(findPreset(PROFILE)!) });
  const journal = (order.receipt?.journal ?? '').split('\n').filter((l) => l.trim() !== '');
  const lines = d.lines.filter((l) => l.trim() !== '');
  let n = 0;
  for (let i = lines.indexOf(journal[0]!); i >= 0; i = lines.indexOf(journal[0]!, i + 1))
    if (journal.every((l, k) => lines[i + k]?.trim() === l.trim())) n++;
  return n;
}

const bar = (page: Page) => page.locator('footer.status-bar');

test('paper out, cover open and paper low show on the counter in Cyrillic, Latin and English', async ({ kasa }) => {
  const { page } = kasa;
  const { fake } = await printer();
  try {
    await setPrinter(kasa, fake.port);
    await login(page);
    const chip = bar(page).getByTestId('printer-condition');
    await expect(chip).toHaveCount(0);

    fake.paperOut = true;
    // Within the next idle poll (every second here, KASA_PRINTER_POLL_MS); the default wait bounds it.
    await expect(chip).toHaveText('Нема папира');
    await expect(chip).toHaveAttribute('data-level', 'alarm');
    fake.loadPaper();
    await expect(chip).toHaveCount(0);

    await bar(page).getByLabel('Језик').selectOption('sr-Latn');
    fake.coverOpen = true;
    await expect(chip).toHaveText('Otvoren poklopac');
    fake.closeCover();
    await expect(chip).toHaveCount(0);

    await bar(page).getByLabel('Jezik').selectOption('en');
    fake.paperNearEnd = true;
    await expect(chip).toHaveText('Paper low');
    await expect(chip).toHaveAttribute('data-level', 'warn');
    fake.paperOut = true;
    await expect(chip).toHaveText('Paper out');
  } finally {
    await fake.close();
  }
});

test('a power cut during a receipt asks the cashier in each language; „Не“ prints it exactly once', async ({
  kasa,
}) => {
  const { page } = kasa;
  const { fake, cutNextJob } = await printer();
  try {
    await setPrinter(kasa, fake.port);
    await login(page);

    cutNextJob();
    const first = await sell(kasa);
    const asked = page.getByRole('alertdialog', { name: 'Да ли је рачун одштампан?' });
    await expect(asked).toBeVisible();
    await expect(asked).toContainText(first.receipt?.invoiceNumber ?? '?');
    await expect(asked.getByRole('button', { name: 'Да, изашао је' })).toBeVisible();
    expect(copiesOnPaper(fake, first)).toBe(0);
    await asked.getByRole('button', { name: 'Не, одштампај поново' }).click();
    await expect(asked).toHaveCount(0);
    await expect.poll(() => copiesOnPaper(fake, first)).toBe(1);

    /**
     * The bar's language picker (named `picker` in the language shown) set to `lang`, a sale whose job is cut: the
     * question in `lang` names the receipt and offers to print again; „yes“ closes it. Gives the sale.
     */
    const answeredYes = async (
      picker: string,
      lang: 'sr-Latn' | 'en',
      words: { question: string; again: string; yes: string },
    ): Promise<OrderView> => {
      await bar(page).getByLabel(picker).selectOption(lang);
      cutNextJob();
      const sale = await sell(kasa);
      const question = page.getByRole('alertdialog', { name: words.question });
      await expect(question).toContainText(sale.receipt?.invoiceNumber ?? '?');
      await expect(question.getByRole('button', { name: words.again })).toBeVisible();
      await question.getByRole('button', { name: words.yes }).click();
      await expect(question).toHaveCount(0);
      return sale;
    };
    const second = await answeredYes('Језик', 'sr-Latn', {
      question: 'Da li je račun odštampan?',
      again: 'Ne, odštampaj ponovo',
      yes: 'Da, izašao je',
    });
    await answeredYes('Jezik', 'en', {
      question: 'Did the receipt print?',
      again: 'No, print it again',
      yes: 'Yes, it came out',
    });

    // Each answer is audited with the cashier's name; "yes" printed nothing more.
    const audit = await kasa.host.call<{ entries: { action: string; actor: string | null }[] }>('audit.list', {
      managerPin: MANAGER_PIN,
      limit: 50,
    });
    const answers = (audit.body.value?.entries ?? []).filter((e) => e.action.startsWith('print.'));
    expect(answers.map((e) => e.action).sort()).toEqual(['print.confirmed', 'print.confirmed', 'print.notCameOut']);
    expect(copiesOnPaper(fake, second)).toBe(0);
    expect(copiesOnPaper(fake, first)).toBe(1);
  } finally {
    await fake.close();
  }
});
