/**
 * The prices the catalog lists for a checkout line (shared/contract/authz.ts `catalogPrices`): the guard asks for
 * a manager's approval when a line's price is not one of them.
 */
import type { CatalogRef } from '../../shared/contract/authz.ts';
import type { CatalogService } from './service.ts';

export function listedPrices(
  catalog: Pick<CatalogService, 'byBarcode' | 'productById'>,
  labels: () => string[],
): (line: CatalogRef) => (number | 'unknown')[] {
  return (line) => {
    const known = labels();
    // An in-store price barcode carries this line's price of its product.
    const scanned = line.priceCode ? catalog.byBarcode(line.priceCode, known) : null;
    const carried = scanned?.kind === 'price' ? scanned : null;
    const price = (p: { id: number; pricePara: number }): number =>
      carried && carried.product.id === p.id ? carried.unitPricePara : p.pricePara;
    const prices: (number | 'unknown')[] = carried ? [carried.unitPricePara] : [];
    if (line.productId !== undefined) {
      const product = catalog.productById(line.productId, known);
      prices.push(product ? price(product) : 'unknown');
    }
    const byCode = line.gtin ? catalog.byBarcode(line.gtin, known) : null;
    if (byCode?.kind === 'exact') prices.push(price(byCode.product));
    return prices;
  };
}
