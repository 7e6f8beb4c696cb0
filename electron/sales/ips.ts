/**
 * Instant payments at the till (docs/payments.md): the NBS IPS QR code the customer scans with „IPS скенирај“, built
 * from the shop's IPS settings (`ipsAccount`, `ipsName`: the manager's) and a model 97 reference that ties the
 * transfer to the sale. The sale itself is `sales.checkout` with a `mobileMoney` payment and that reference.
 */
import type { IpsRequestView } from '../../shared/contract/index.ts';
import { formatRsd } from '../../shared/money.ts';
import {
  IPS_PAYMENT_CODE_RETAIL,
  accountCheckDigitsOk,
  buildIpsQr,
  formatAccount,
  model97Control,
} from '../../shared/payments/ips-qr.ts';
import { wallClock } from '../../shared/i18n/time.ts';
import { CommandError } from '../errors.ts';

export interface IpsDeps {
  setting(key: 'ipsAccount' | 'ipsName'): string | undefined;
  now(): number;
  /** Two random digits (injectable for tests). */
  random2?(): string;
}

/** The shop's account and payee name, or a refusal saying where the manager sets them. */
function payee(deps: IpsDeps): { account: string; name: string } {
  const account = deps.setting('ipsAccount') ?? '';
  const name = (deps.setting('ipsName') ?? '').trim();
  if (!accountCheckDigitsOk(account) || name === '') throw new CommandError('unavailable', 'ips_not_configured');
  return { account, name };
}

/**
 * A new reference: the Belgrade time to the second (yyMMddHHmmss) and two random digits, under model 97 with its
 * control pair (`97cc` + 14 digits). Unique enough for one shop's counter (two codes in one second share it only
 * one time in a hundred), and readable on the account statement as the moment the code was shown.
 */
export function newIpsReference(now: number, random2: () => string): string {
  const c = wallClock(new Date(now));
  const digits = `${c.year.slice(2)}${c.month}${c.day}${c.hour}${c.minute}${c.second}${random2()}`;
  return `97${model97Control(digits)}${digits}`;
}

const defaultRandom2 = (): string => String(Math.floor(Math.random() * 100)).padStart(2, '0');

/** The code for `amountPara` with `reference` (a new one when not given). */
export function ipsRequest(deps: IpsDeps, amountPara: number, reference?: string): IpsRequestView {
  const { account, name } = payee(deps);
  const ref = reference ?? newIpsReference(deps.now(), deps.random2 ?? defaultRandom2);
  const payload = buildIpsQr({
    kind: 'PT',
    account,
    name,
    amountPara,
    paymentCode: IPS_PAYMENT_CODE_RETAIL,
    reference: ref,
  });
  return { payload, reference: ref, account, name, amountPara };
}

/** The slip the printer gives the customer to scan: what it is, the code, then what the code says. */
export function ipsSlip(view: IpsRequestView): { lines: string[]; qr: { data: string; at: number } } {
  const lines = [
    'ОВО НИЈЕ ФИСКАЛНИ РАЧУН',
    'ИПС QR — плаћање инстант трансфером',
    'Скенирајте апликацијом банке: ИПС скенирај',
    '',
    `Износ: ${formatRsd(view.amountPara)} RSD`,
    `Прималац: ${view.name}`,
    `Рачун: ${formatAccount(view.account)}`,
    `Позив на број: ${view.reference}`,
    'ОВО НИЈЕ ФИСКАЛНИ РАЧУН',
  ];
  return { lines, qr: { data: view.payload, at: 3 } };
}
