/**
 * What the customer displays show now (docs/payments.md, "The customer display"): the counter says what the
 * customer should see (`display.show`), the feed turns it into a frame — integer para and thousandths, the shop's
 * name, the IPS code built here from the shop's settings for the amount and reference the cashier's dialog shows —
 * emits it (`display.frame`) and keeps it for a display that connects later.
 */
import type { CommandParsedInput, DisplayFrame } from '../../shared/contract/index.ts';
import { toMilli, toPara } from '../../shared/money.ts';
import { ipsRequest, type IpsDeps } from '../sales/ips.ts';

export interface DisplayFeedDeps {
  shopName(): string;
  ips: IpsDeps;
  emit(frame: DisplayFrame): void;
}

export interface DisplayFeed {
  show(input: CommandParsedInput<'display.show'>): DisplayFrame;
  current(): DisplayFrame;
}

const para = (amount: number): number => toPara(amount) as number;

export function createDisplayFeed(deps: DisplayFeedDeps): DisplayFeed {
  let last: Omit<DisplayFrame, 'shopName'> = { phase: 'idle', lines: [], totalPara: 0 };
  // The shop's name is read at each look: a manager may rename the shop while a display is idle.
  const current = (): DisplayFrame => ({ ...last, shopName: deps.shopName() });
  return {
    show(input) {
      const totalPara = para(input.total);
      const paidPara = input.paid === undefined ? undefined : para(input.paid);
      // The code is the core's, from the shop's settings: a caller cannot put another account on the display.
      const ips =
        input.phase === 'ips' && input.ips ? ipsRequest(deps.ips, para(input.ips.amount), input.ips.reference) : null;
      last = {
        phase: input.phase,
        lines: input.lines.map((l) => ({
          name: l.name,
          quantityMilli: toMilli(l.quantity) as number,
          unitPara: para(l.unitPrice),
          totalPara: para(l.total),
          ...(l.promotion ? { promotion: l.promotion } : {}),
        })),
        totalPara,
        ...(paidPara === undefined ? {} : { paidPara, changePara: Math.max(0, paidPara - totalPara) }),
        ...(ips
          ? { ips: { payload: ips.payload, amountPara: ips.amountPara, name: ips.name, reference: ips.reference } }
          : {}),
      };
      const frame = current();
      deps.emit(frame);
      return frame;
    },
    current,
  };
}
