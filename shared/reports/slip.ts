/**
 * Lines of a non-fiscal slip on 58 mm paper (the report's cut and the shift report): 32 characters wide, a label on
 * the left and its amount at the right edge. Both slips lay out their lines by these rules, so a change of the
 * paper's width is made here once.
 */

/** The slip's width in characters (58 mm paper). */
export const SLIP_WIDTH = 32;

/** `left`, cut where it would reach the amount, then `right` at the right edge, with at least one space between. */
export function slipRow(left: string, right: string): string {
  const l = left.slice(0, SLIP_WIDTH - 1 - right.length);
  return l + ' '.repeat(Math.max(1, SLIP_WIDTH - l.length - right.length)) + right;
}

/** A name and its amount on one line when they fit; else the name above, whole, and the amount below it (never cut). */
export function slipNamed(name: string, right: string): string[] {
  return name.length + 1 + right.length <= SLIP_WIDTH ? [slipRow(name, right)] : [name, slipRow('', right)];
}
