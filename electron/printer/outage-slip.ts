/**
 * The slip of a sale nobody could sign (docs/printing.md, "Sales nobody could sign"). While neither the gateway
 * nor an L-PFR can sign, a sale that takes money is kept unsigned, and the customer leaves with this paper: not a
 * fiscal receipt, and marked so at its head and foot, naming the sale (order number, time of sale in Serbian
 * local time, the shop and the till), what was sold, the total and how it was paid, and that the fiscal receipt
 * follows at this till. 40 columns like the journal; printed in the till's code page like any slip (layout.ts:
 * Cyrillic on the cheap printers' CP1251, a line no page holds as an image). Pure: no I/O, no clock.
 */
import { PAYMENT_TYPE_NAMES } from '../../shared/fiscal-text.ts';
import { formatQuantity, formatRsd } from '../../shared/money.ts';
import type { OrderLine, OrderPayment } from '../../shared/domain.ts';
import { NOT_FISCAL, slipDateTime, slipPair } from './refund-slip.ts';

const WIDTH = 40;
export { NOT_FISCAL };
export const OUTAGE_TITLE = 'ПРОДАЈА БЕЗ ФИСКАЛНОГ ПРОЦЕСОРА';
export const TOTAL_LABEL = 'УКУПНО:';

/** What the slip is made of: the order as captured at the checkout. */
export interface OutageSlipInput {
  orderNumber: string;
  /** When the sale was made (ISO 8601, the order's `created_at`). */
  soldAt: string;
  lines: readonly OrderLine[];
  /** What was paid, per type (change already taken out of cash). */
  payments: readonly OrderPayment[];
  totalPara: number;
  changePara: number;
  shopName?: string | undefined;
  tillName?: string | undefined;
  terminalId: string;
  cashier?: string | undefined;
}

function centred(text: string, fill = ' '): string {
  const inner = fill === ' ' ? text : ` ${text} `;
  const n = WIDTH - [...inner].length;
  if (n <= 0) return text;
  return (fill.repeat(Math.ceil(n / 2)) + inner + fill.repeat(Math.floor(n / 2))).trimEnd();
}

/** Hard-wrapped to 40 columns (a product's name may be longer than a line). */
function wrap(text: string): string[] {
  const chars = [...text.replace(/[\r\n\t]+/g, ' ')];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += WIDTH) out.push(chars.slice(i, i + WIDTH).join(''));
  return out.length > 0 ? out : [''];
}

const RULE = '-'.repeat(WIDTH);

/** What the customer handed over: the stored payments have the change taken out of cash; it is put back. */
function tendered(payments: readonly OrderPayment[], changePara: number): OrderPayment[] {
  if (changePara <= 0) return [...payments];
  const i = payments.findIndex((p) => p.type === 'cash');
  if (i < 0) return [...payments, { type: 'cash', amountPara: changePara }];
  return payments.map((p, j) => (j === i ? { ...p, amountPara: p.amountPara + changePara } : p));
}

/** The slip's lines, at most 40 columns each. */
export function outageSlipLines(input: OutageSlipInput): string[] {
  const shop = input.shopName?.trim() ?? '';
  const till = input.tillName?.trim() ?? '';
  const items = input.lines.flatMap((l) => [
    ...wrap(l.name),
    ...slipPair(`  ${formatQuantity(l.quantityMilli)} x ${formatRsd(l.unitPricePara)}`, formatRsd(l.totalPara)),
    ...(l.discountPara > 0 ? slipPair('  Попуст:', `-${formatRsd(l.discountPara)}`) : []),
  ]);
  return [
    centred(NOT_FISCAL, '='),
    ...(shop !== '' ? wrap(shop).map((s) => centred(s)) : []),
    centred(OUTAGE_TITLE),
    RULE,
    ...slipPair('Поруџбина:', input.orderNumber),
    ...slipPair('Време продаје:', slipDateTime(input.soldAt)),
    ...slipPair('Каса:', till !== '' ? `${till.slice(0, 20)} (${input.terminalId})` : input.terminalId),
    ...(input.cashier ? slipPair('Касир:', input.cashier.slice(0, 30)) : []),
    RULE,
    ...items,
    RULE,
    ...slipPair(TOTAL_LABEL, formatRsd(input.totalPara)),
    ...tendered(input.payments, input.changePara)
      .filter((p) => p.amountPara > 0)
      .flatMap((p) => slipPair(`${PAYMENT_TYPE_NAMES[p.type] ?? p.type}:`, formatRsd(p.amountPara))),
    ...(input.changePara > 0 ? slipPair('Кусур:', formatRsd(input.changePara)) : []),
    RULE,
    'Фискални рачун није могао бити издат:',
    'нема везе са фискалним процесором.',
    'Биће издат и одштампан на овој каси',
    'чим веза буде успостављена.',
    centred(NOT_FISCAL, '='),
  ];
}
