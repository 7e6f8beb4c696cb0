/** The hub area's handlers (shared/contract/hub.ts): the manager sees the till's link, enrols the till, re-pins. */
import { approverOf } from '../auth/context.ts';
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { CommandError, invalidInput } from '../errors.ts';
import { formatFingerprint, normalizeFingerprint } from '../../shared/hub/fingerprint.ts';
import { PinMismatchError } from '../../shared/node/pinned-fetch.ts';
import { HubError, HubTransportError } from './client.ts';
import type { Language } from '../../shared/domain.ts';
import { message } from '../../shared/messages.ts';
import type { HubSync } from './sync.ts';

export interface HubHandlerDeps {
  audit: (actor: string, action: string, detail: Record<string, unknown>) => void;
  /** The UI language, for the hub's refusal said in words. */
  language: () => Language;
}

/** The message key of the reason for each code of the hub's enrolment refusals. */
const HUB_REASONS: Readonly<Record<string, string>> = {
  enrol_code_unknown: 'hub_code_unknown',
  enrol_code_used: 'hub_code_used',
  enrol_code_expired: 'hub_code_expired',
  till_name_taken: 'hub_till_name_taken',
  till_name_reserved: 'hub_till_name_reserved',
};

/**
 * A refusal of the hub's link in the manager's words: another certificate than the one typed (at the
 * fingerprint), a URL the till may not use (at the URL), the hub's own refusal, or an unreachable hub.
 */
function linkError(err: unknown, lang: Language): CommandError {
  if (err instanceof PinMismatchError)
    return new CommandError(
      'invalid_input',
      'hub_pin_mismatch',
      { field: 'fingerprint', seen: formatFingerprint(err.seen) || '—' },
      'fingerprint',
    );
  if (err instanceof HubTransportError)
    return err.reason === 'plain_http'
      ? invalidInput('url', 'hub_plain_http')
      : invalidInput('fingerprint', 'hub_fingerprint_required');
  if (err instanceof HubError && err.status < 500) {
    const field = err.field === 'code' || err.code.startsWith('enrol_code') ? 'code' : 'url';
    // The hub's own text is English (for API users): the till says its code's reason in words.
    const reason = message(lang, HUB_REASONS[err.code] ?? 'hub_refused');
    return new CommandError('invalid_input', 'hub_enrol_refused', { field, reason }, field);
  }
  return new CommandError('unavailable', 'hub_unreachable', { reason: message(lang, 'hub_no_answer') });
}

/** The hub's refusal of this till's opening stock in the till's words: the PIN at its field, the rest at the choice. */
function goodsOpeningError(err: unknown, lang: Language): CommandError {
  if (err instanceof HubError && err.field === 'approverPin')
    return new CommandError('forbidden', 'hub_pin_not_manager', { field: 'managerPin' }, 'managerPin');
  if (err instanceof HubError && err.code === 'goods_shop_has_stock')
    return new CommandError('conflict', 'hub_goods_shop_has_stock');
  if (err instanceof HubError && err.code === 'product_unknown')
    return new CommandError('conflict', 'hub_goods_product_unknown');
  return new CommandError('unavailable', 'hub_unreachable', { reason: message(lang, 'hub_no_answer') });
}

export function hubHandlers(sync: HubSync, deps: HubHandlerDeps): AreaHandlers<'hub'> {
  return areaHandlers('hub', {
    'hub.status': async () => sync.status(),
    'hub.catalogChoice': async ({ managerPin, keep }, caller) => {
      if (sync.catalogChoice() === null)
        throw new CommandError('conflict', 'hub_no_catalog_choice', { field: 'keep' }, 'keep');
      try {
        await sync.chooseCatalog(keep, managerPin);
      } catch (err) {
        // The hub checks the PIN itself (issue 39): this till's manager must be a manager of the shop at the hub.
        if (err instanceof HubError && err.field === 'approverPin')
          throw new CommandError('forbidden', 'hub_pin_not_manager', { field: 'managerPin' }, 'managerPin');
        if (err instanceof HubError && err.status === 400)
          throw new CommandError('invalid_input', 'hub_catalog_refused', { field: 'keep' }, 'keep');
        throw new CommandError('unavailable', 'hub_unreachable', { reason: message(deps.language(), 'hub_no_answer') });
      }
      deps.audit(approverOf(caller).name, 'hub.catalogChoice', { keep });
      return { kept: keep };
    },
    'hub.staffChoice': async ({ hubPin, choices }, caller) => {
      // A manager of this till asks; the approval is a manager's PIN at the hub, checked there.
      const actor = caller?.actor;
      if (actor?.role !== 'manager')
        throw new CommandError('forbidden', 'pin_not_manager', { field: 'hubPin' }, 'hubPin');
      const r = await sync.chooseStaff(hubPin, choices);
      deps.audit(actor.name, 'hub.staffChoice', r);
      return r;
    },
    'hub.enrol': async ({ managerPin, url, code, fingerprint }, caller) => {
      const manager = approverOf(caller).name;
      const already = sync.tillId();
      if (already !== null) throw new CommandError('conflict', 'hub_already_enrolled', { id: already });
      let r: { tillId: number; shopId: number };
      try {
        r = await sync.enrol(url, code, fingerprint ?? null, managerPin);
      } catch (err) {
        throw linkError(err, deps.language());
      }
      // The code is spent; only the URL, the till id and the pinned fingerprint go into the audit (never the
      // credential).
      const pin = normalizeFingerprint(fingerprint ?? '');
      deps.audit(manager, 'hub.enrol', {
        url,
        tillId: r.tillId,
        shopId: r.shopId,
        ...(pin ? { fingerprint: pin } : {}),
      });
      sync.start();
      return r;
    },
    'hub.goodsOpening': async ({ managerPin }, caller) => {
      const state = sync.goodsOpening();
      if (state === null) throw new CommandError('conflict', 'hub_not_enrolled');
      if (state.brought) throw new CommandError('conflict', 'hub_goods_brought', { number: state.brought.number });
      if (state.tillLines === 0) throw new CommandError('conflict', 'hub_goods_none');
      let number: string;
      try {
        number = await sync.bringGoods(managerPin);
      } catch (err) {
        throw goodsOpeningError(err, deps.language());
      }
      deps.audit(approverOf(caller).name, 'hub.goodsOpening', { number });
      return { number };
    },
    'hub.repin': async ({ fingerprint, url }, caller) => {
      const manager = approverOf(caller).name;
      if (sync.tillId() === null) throw new CommandError('conflict', 'hub_not_enrolled');
      try {
        await sync.repin(fingerprint, url);
      } catch (err) {
        throw linkError(err, deps.language());
      }
      const pin = normalizeFingerprint(fingerprint) ?? '';
      deps.audit(manager, 'hub.repin', { fingerprint: pin, ...(url ? { url } : {}) });
      return { fingerprint: pin };
    },
  });
}
