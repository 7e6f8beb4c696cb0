/**
 * What a shelf label says (docs/prices.md, "Shelf labels"), the same for every printer language and the A4 sheets:
 * the product's name, the price in force, the unit price per kg or l, the barcode, and on a promotion the previous
 * price and the promotion's days. Pure: the core reads the product and its price, this formats them.
 *
 * The unit price (Pravilnik o vrsti robe za koju se ističe jedinična cena i načinu isticanja, „Sl. glasnik RS“
 * 39/2021): čl. 3 in the units usual for the kind (kg, l), čl. 4 with the unit as „din/jedinica mere“. The Pravilnik
 * sets no rounding: the price per kg or l is rounded to the para, half up, as every amount in Kasa.
 */
import { formatRsd, roundDiv, type Milli, type Para } from '../money.ts';
import { interpolate } from '../i18n/catalog.ts';
import { LABEL_WORDS, toLatinScript, type LabelScript } from '../i18n/labels.ts';
import { barcodeOf, type LabelBarcode } from './barcode.ts';

/** A product as a label needs it. */
export interface LabelProduct {
  code: string;
  name: string;
  /** How it is sold: by the piece, or weighed / measured (the price is then already per kg or l). */
  unit: 'piece' | 'kg' | 'l';
  /** The code its barcode carries: its first barcode, else its own code. */
  barcode: string;
  /** A piece's net quantity in thousandths of `netUnit` (500 g = 500 thousandths of a kg); null: not entered. */
  netMilli: Milli | null;
  netUnit: 'kg' | 'l' | null;
  /** The Pravilnik's goods (food, drinks, detergents, cosmetics …) show a unit price; others are exempt. */
  unitPriceRequired: boolean;
}

/** The price in force when the label is made. */
export interface LabelPrice {
  /** The price in force now, per piece (or per kg / l). */
  pricePara: Para;
  /** The catalog's regular price: the previous price a promotion replaces. */
  regularPara: Para;
  /** The promotion giving the price, with its first and last day (ISO days, Belgrade), or null. */
  promotion: { fromDay: string; toDay: string } | null;
}

export interface LabelContent {
  code: string;
  name: string;
  /** `129,99`. */
  price: string;
  currency: string;
  /** `Јединична цена: 259,98 дин/кг`, or null (exempt goods). */
  unitPrice: string | null;
  /** `Стара цена: 159,99 дин` on a promotion, else null. */
  oldPrice: string | null;
  /** `Акција 01.12.2026.–07.12.2026.`, else null. */
  promotion: string | null;
  barcode: LabelBarcode | null;
}

/** The unit price: the price of `netMilli` thousandths of a kg or l, per whole kg or l, rounded half up. */
export function unitPricePara(pricePara: Para, netMilli: Milli): Para {
  return roundDiv(pricePara * 1000, netMilli);
}

/** A day on a label: 01.12.2026. */
export function labelDay(isoDay: string): string {
  const [y, m, d] = isoDay.split('-');
  return `${d}.${m}.${y}.`;
}

/** Why a product cannot have its label: a unit price is required and there is no net quantity to compute it. */
export function labelProblem(p: LabelProduct): 'net_quantity' | null {
  return p.unit === 'piece' && p.unitPriceRequired && (p.netMilli === null || p.netUnit === null)
    ? 'net_quantity'
    : null;
}

/** A label's figures: what a shopper reads as its price. When any of them changes, a printed label is out of date. */
export interface LabelFigures {
  pricePara: Para;
  /** The previous price on a promotion, else null. */
  oldPara: Para | null;
  promotion: { fromDay: string; toDay: string } | null;
  /** The price per kg or l, with its unit, or null (exempt goods). */
  unitPrice: { para: Para; unit: 'kg' | 'l' } | null;
}

export function labelFigures(p: LabelProduct, price: LabelPrice): LabelFigures {
  const onPromotion = price.promotion !== null && price.pricePara < price.regularPara;
  const unitPrice =
    p.unit !== 'piece'
      ? { para: price.pricePara, unit: p.unit }
      : p.netMilli !== null && p.netUnit !== null && p.unitPriceRequired
        ? { para: unitPricePara(price.pricePara, p.netMilli), unit: p.netUnit }
        : null;
  return {
    pricePara: price.pricePara,
    oldPara: onPromotion ? price.regularPara : null,
    promotion: onPromotion ? price.promotion : null,
    unitPrice,
  };
}

/** The label of one product (call `labelProblem` first: a required unit price without a net quantity is left out). */
export function labelContent(p: LabelProduct, price: LabelPrice, script: LabelScript): LabelContent {
  const w = LABEL_WORDS[script];
  const f = labelFigures(p, price);
  return {
    code: p.code,
    name: script === 'sr-Latn' ? toLatinScript(p.name) : p.name,
    price: formatRsd(f.pricePara),
    currency: w.currency,
    unitPrice: f.unitPrice ? `${w.unitPrice}: ${formatRsd(f.unitPrice.para)} ${w.perUnit[f.unitPrice.unit]}` : null,
    oldPrice: f.oldPara !== null ? `${w.oldPrice}: ${formatRsd(f.oldPara)} ${w.currency}` : null,
    promotion: f.promotion
      ? interpolate(w.promotion, { from: labelDay(f.promotion.fromDay), to: labelDay(f.promotion.toDay) })
      : null,
    barcode: barcodeOf(p.barcode),
  };
}
