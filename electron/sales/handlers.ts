/** The sales area's handlers (shared/contract/sales.ts): the checkout, the tax rates and the app's state. */
import type { AppInfo, TaxRatesView } from '../../shared/domain.ts';
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { cashierOf } from '../auth/context.ts';
import { CommandError } from '../errors.ts';
import type { GatewayClient } from '../gateway/client.ts';
import type { SalesService } from './service.ts';
import type { TaxRatesCache } from './tax-rates.ts';
import type { OpenCart } from './open-cart.ts';
import type { DiscountApprovals } from './discount-approvals.ts';
import { discountBeyondLimit, discountedLine } from '../../shared/contract/authz.ts';
import { toPara } from '../../shared/money.ts';
import { ipsRequest, ipsSlip, type IpsDeps } from './ips.ts';

export interface SalesHandlerDeps {
  sales: SalesService;
  taxRates: TaxRatesCache;
  /** The gateway in use (it changes when a manager sets a new key). */
  client(): GatewayClient;
  info(): AppInfo;
  warn(line: string): void;
  openCart: OpenCart;
  discountApprovals: DiscountApprovals;
  discountLimitPercent(): number;
  now(): number;
  /** The shop's IPS settings (docs/payments.md). */
  ips: IpsDeps;
  /** Queues a non-fiscal slip with a QR code on the receipt printer (refused without one); its job id. */
  printSlip(lines: readonly string[], qr: { data: string; at: number }): number;
}

export function salesHandlers(deps: SalesHandlerDeps): AreaHandlers<'sales'> {
  const { sales, taxRates } = deps;
  return areaHandlers('sales', {
    'app.info': async () => deps.info(),
    'taxRates.get': async ({ refresh }) => {
      const withUsual = (view: TaxRatesView): TaxRatesView => {
        const usualLabel = taxRates.usualLabel(view);
        return usualLabel === undefined ? view : { ...view, usualLabel };
      };
      if (refresh || !taxRates.get()) {
        try {
          return withUsual(await taxRates.refresh(deps.client()));
        } catch (err) {
          const cached = taxRates.get();
          if (cached) return withUsual(cached);
          deps.warn(`tax rates unavailable: ${String(err)}`);
          throw new CommandError('unavailable', 'tax_rates_missing');
        }
      }
      return withUsual(taxRates.get() as NonNullable<ReturnType<TaxRatesCache['get']>>);
    },
    // The receipt names the person logged in: the contract takes no cashier from the caller.
    'sales.checkout': (input, caller) =>
      sales.checkout(input, { cashier: cashierOf(caller), approvals: caller?.discountApprovals ?? [] }),
    // The guard asked for a manager's PIN if any line is beyond the limit; keep the approval of exactly those.
    'sales.approveDiscount': async ({ lines }, caller) => {
      const beyond = lines.map(discountedLine).filter((l) => discountBeyondLimit(l, deps.discountLimitPercent()));
      if (beyond.length === 0) return { approved: 0, approvedBy: null };
      if (!caller?.approver) throw new CommandError('forbidden', 'approval_required', { field: 'approval.managerPin' });
      deps.discountApprovals.record(beyond, caller.actor, caller.approver);
      return { approved: beyond.length, approvedBy: caller.approver.name };
    },
    'ips.request': async ({ amount }) => ipsRequest(deps.ips, toPara(amount) as number),
    'ips.print': async ({ amount, reference }) => {
      const slip = ipsSlip(ipsRequest(deps.ips, toPara(amount) as number, reference));
      return { jobId: deps.printSlip(slip.lines, slip.qr) };
    },
    'cart.get': async () => deps.openCart.get(),
    'cart.save': async ({ rev, lines }, caller) => ({
      rev,
      saved: deps.openCart.save(rev, lines, caller?.actor?.name ?? null, deps.now()),
    }),
  });
}
