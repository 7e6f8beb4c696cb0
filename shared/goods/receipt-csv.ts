/**
 * A supplier's CSV as goods receipt lines (docs/goods.md "Documents"), read the same way by the till's receipt
 * (electron/goods/service.ts) and the hub's (hub/services/goods-receipt-extras.ts): `code;quantity;purchase
 * price[;discount %]` per row (`;` or a tab, csvRows; a decimal comma or point), a header row skipped. The code is
 * a product's code or one of its barcodes, found by the caller's `resolve`. A bad row is refused naming its row and
 * column (CountCsvRefusal, whose key and parameters are a message of shared/messages.ts); nothing is returned then.
 */
import { parseQuantityInput, parseRsdInput } from '../money.ts';
import { CountCsvRefusal, csvRows } from './stocktake-rules.ts';

/** A row read: its product (as `resolve` found it), quantity in thousandths, price in para, discount in bp. */
export interface ReceiptCsvLine<P> {
  product: P;
  qtyMilli: number;
  purchasePara: number;
  discountBp: number;
}

export function parseReceiptCsv<P>(
  csv: string,
  resolve: (code: string) => P | undefined,
  max: number,
): ReceiptCsvLine<P>[] {
  const out: ReceiptCsvLine<P>[] = [];
  for (const { row, cells } of csvRows(csv)) {
    const [code = '', qtyText = '', priceText = '', discountText = ''] = cells;
    const milli = parseQuantityInput(qtyText);
    if (row === 1 && milli === null) continue; // the header
    if (code === '') throw new CountCsvRefusal('goods_csv_cell', { row, column: 1 });
    const product = resolve(code);
    if (product === undefined) throw new CountCsvRefusal('goods_csv_unknown', { row, column: 1, value: code });
    if (milli === null || milli <= 0)
      throw new CountCsvRefusal('goods_csv_quantity', { row, column: 2, value: qtyText });
    const price = parseRsdInput(priceText);
    if (price === null || price <= 0)
      throw new CountCsvRefusal('goods_csv_amount', { row, column: 3, value: priceText });
    // A percentage read as an amount: „10“ is 1000 hundredths of a percent, „12,5“ 1250.
    const discount = discountText === '' ? 0 : parseRsdInput(discountText);
    if (discount === null || discount < 0 || discount > 10_000)
      throw new CountCsvRefusal('goods_csv_amount', { row, column: 4, value: discountText });
    out.push({ product, qtyMilli: milli, purchasePara: price, discountBp: discount });
  }
  if (out.length === 0) throw new CountCsvRefusal('goods_csv_empty', {});
  if (out.length > max) throw new CountCsvRefusal('too_many', {});
  return out;
}
