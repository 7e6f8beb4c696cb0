import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatQuantity, formatRsd, lineTotal } from '../../../shared/money.ts';
import { usePos, usePosPick } from '../context.ts';
import { formatLineQuantity } from '../format.ts';
import { cartTotal, needsShift } from '../store/index.ts';
import { belowZero, ruleNamesOf, type CartLine } from '../store/cart.ts';
import type { TFunction } from 'i18next';
import type { ProductView } from '../../../shared/contract/catalog.ts';
import type { Language } from '../../../shared/domain.ts';
import { dayIn, formatMoment } from '../../../shared/i18n/time.ts';
import { DiscountDialog, ManualDialog, ParkDialog, ParkedDialog, PriceDialog, QuantityDialog } from './Dialogs.tsx';

/** The id of the search box: the global key handler sends stray typing and scans there. */
export const SEARCH_ID = 'search';

/** A button with its keyboard shortcut shown (and announced through aria-keyshortcuts). */
export function ActionButton(props: {
  label: string;
  shortcut: string;
  onClick: () => void;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={props.className}
      onClick={props.onClick}
      disabled={props.disabled}
      aria-keyshortcuts={props.shortcut}
    >
      <span>{props.label}</span> <kbd>{props.shortcut}</kbd>
    </button>
  );
}

/**
 * A product's stock as the counter shows it: the till's own book, or on a till enrolled at a store hub the shop's
 * stock there, with the time it is as of while the hub is away (docs/goods.md "The counter's figures").
 */
export function onHandText(
  t: TFunction,
  p: Pick<ProductView, 'onHandMilli' | 'onHandAsOf'>,
  language: Language,
): string {
  if (p.onHandMilli === undefined) return '';
  const asOf = asOfText(t, p.onHandAsOf, language);
  return `${t('sale.onHand', { quantity: formatQuantity(p.onHandMilli) })}${asOf ? ` (${asOf})` : ''}`;
}

/** „последње познато у 14:05“ (today) or „… у 27.11.2026. 14:05“ (an earlier day), in the shop's zone; '' if none. */
function asOfText(t: TFunction, at: string | undefined, language: Language): string {
  if (!at) return '';
  const today = dayIn(new Date()) === dayIn(new Date(at));
  return t('sale.onHandAsOf', { time: formatMoment(at, language, { timeOnly: today }) });
}

function SearchBox() {
  const { t } = useTranslation();
  const { query, results, resultsFor, resultIndex, setQuery, addProduct, moveResult, dialog, language } = usePosPick(
    'language',
    'query',
    'results',
    'resultsFor',
    'resultIndex',
    'setQuery',
    'addProduct',
    'moveResult',
    'dialog',
  );
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (dialog === null) ref.current?.focus();
  }, [dialog]);
  const open = query.trim() !== '' && resultsFor === query;
  const active = results[resultIndex];
  return (
    <div className="search">
      <input
        id={SEARCH_ID}
        ref={ref}
        type="search"
        role="combobox"
        aria-label={t('sale.search')}
        aria-keyshortcuts="F2"
        aria-expanded={open && results.length > 0}
        aria-controls="search-results"
        aria-activedescendant={open && active ? `result-${active.id}` : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={`${t('sale.searchPlaceholder')} (F2)`}
        value={query}
        onChange={(e) => void setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && results.length > 0) {
            e.preventDefault();
            moveResult(1);
          } else if (e.key === 'ArrowUp' && results.length > 0) {
            e.preventDefault();
            moveResult(-1);
          }
        }}
      />
      {open && (
        <ul
          id="search-results"
          role="listbox"
          aria-label={t('sale.results')}
          className="results"
          data-query={resultsFor}
        >
          {results.length === 0 && <li className="empty">{t('sale.noResults', { query })}</li>}
          {results.map((p, i) => (
            <li
              key={p.id}
              id={`result-${p.id}`}
              role="option"
              aria-selected={i === resultIndex}
              className={p.labelMissing ? 'flagged' : undefined}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => addProduct(p)}
            >
              <span className="code">{p.code}</span>
              <span className="name">{p.name}</span>
              <span className="label-tag">{p.label}</span>
              <span className={p.onHandMilli !== undefined && p.onHandMilli < 0 ? 'on-hand flagged' : 'on-hand'}>
                {p.onHandMilli !== undefined ? t('sale.onHand', { quantity: formatQuantity(p.onHandMilli) }) : ''}
                {p.onHandMilli !== undefined && p.onHandAsOf && (
                  <span className="as-of">{asOfText(t, p.onHandAsOf, language)}</span>
                )}
              </span>
              <span className="price">
                {formatRsd(p.pricePara)}
                {p.unit !== 'piece' ? ` /${t(`unit.${p.unit}`)}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The sale's buyer, above the cart once the payment screen set one (docs/prices.md, "The business buyer at the
 * counter"): a business buyer by PIB, else the ID; and the lists and promotions pricing the cart for it, so the
 * cashier sees at the cart that the buyer's prices apply, not only on the payment screen.
 */
function CartBuyer() {
  const { t } = useTranslation();
  const buyerId = usePos((s) => s.saleBuyerId);
  const lines = usePos((s) => s.lines);
  if (!buyerId) return null;
  const pib = /^10:(\d{9})$/.exec(buyerId)?.[1];
  const names = ruleNamesOf(lines);
  return (
    <p role="status" className="cart-buyer" data-testid="cart-buyer">
      <strong>{pib ? t('sale.buyerPib', { pib }) : t('sale.buyerOther', { id: buyerId.replace(/^\d+:/, '') })}</strong>
      {names.length > 0 && <> · {t('pay.priceRules', { names: names.join(', ') })}</>}
    </p>
  );
}

/** The flag of a cart line that takes its product below zero: what would be left, in words and in its name. */
function BelowZero(props: { lines: readonly CartLine[]; index: number }) {
  const { t } = useTranslation();
  const line = props.lines[props.index];
  const left = belowZero(props.lines, props.index);
  const refused = line?.refused && line.refused.quantityMilli === line.quantityMilli ? line.refused.message : null;
  if (left === null && refused === null) return null;
  const text = left !== null ? t('sale.belowZero', { quantity: formatQuantity(left) }) : '';
  return (
    <>
      {left !== null && (
        <span
          className="below-zero flagged"
          role="note"
          aria-label={`${text}: ${line?.name ?? ''}`}
          data-testid="below-zero"
        >
          {text}
        </span>
      )}
      {refused !== null && (
        <span className="below-zero flagged" role="alert" data-testid="line-refused">
          {refused}
        </span>
      )}
    </>
  );
}

function Cart() {
  const { t } = useTranslation();
  const { lines, selected, select, removeLine, openDialog } = usePosPick(
    'lines',
    'selected',
    'select',
    'removeLine',
    'openDialog',
  );
  const noQuickKeys = usePos((s) => s.favourites.length === 0);
  const setScreen = usePos((s) => s.setScreen);
  const bottom = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'nearest' });
  }, [lines.length]);
  if (lines.length === 0) {
    return (
      <div className="cart empty" aria-label={t('sale.cart')} role="region">
        <p>{t('sale.emptyCart')}</p>
        {noQuickKeys && (
          // A new till has no products: say where they come from.
          <p className="help">
            {t('sale.noCatalog')}{' '}
            <button type="button" className="link" onClick={() => setScreen('catalog')}>
              {t('sale.openCatalog')} <kbd>F8</kbd>
            </button>
          </p>
        )}
      </div>
    );
  }
  return (
    <div className="cart" role="region" aria-label={t('sale.cart')}>
      <CartBuyer />
      <table aria-label={t('sale.cart')}>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{t('sale.name')}</th>
            {/* Short headers (the whole word is their name): the name column keeps the room at 1024 px. */}
            <th scope="col" className="num" aria-label={t('sale.quantity')} title={t('sale.quantity')}>
              {t('sale.quantityShort')}
            </th>
            <th scope="col" className="num">
              {t('sale.price')}
            </th>
            <th scope="col" className="num" aria-label={t('sale.discount')} title={t('sale.discount')}>
              {t('sale.discountShort')}
            </th>
            <th scope="col" aria-label={t('sale.label')} title={t('sale.label')}>
              {t('sale.labelShort')}
            </th>
            <th scope="col" className="num">
              {t('sale.lineTotal')}
            </th>
            <th scope="col">
              <span className="visually-hidden">{t('action.remove')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => (
            <tr
              key={l.key}
              ref={i === lines.length - 1 ? bottom : undefined}
              aria-selected={i === selected}
              aria-label={t('sale.line', { index: i + 1, name: l.name })}
              className={i === selected ? 'selected' : undefined}
              onClick={() => select(i)}
              data-testid="cart-line"
            >
              <td>{i + 1}</td>
              <td className="name">
                {l.name}
                <BelowZero lines={lines} index={i} />
                {l.rule && (
                  // The promotion or price list in force and the regular price it replaces (docs/prices.md).
                  <span className="price-rule" data-testid="price-rule">
                    {l.rule.name} · {t('sale.priceWas', { was: formatRsd(l.unitPricePara) })}
                  </span>
                )}
              </td>
              <td className="num">
                <button
                  type="button"
                  className="link"
                  aria-label={`${t('sale.quantity')}: ${l.name}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    select(i);
                    openDialog('quantity');
                  }}
                >
                  {formatLineQuantity(l.quantityMilli, l.unit)} {t(`unit.${l.unit}`)}
                </button>
              </td>
              <td className="num">
                {formatRsd(l.unitPricePara)}
                {l.priceWas !== undefined && (
                  // The catalog changed the price under the line: the old one beside the new, not a surprise.
                  <span className="price-was" data-testid="price-was">
                    {t('sale.priceWas', { was: formatRsd(l.priceWas) })}
                  </span>
                )}
              </td>
              <td className="num">{l.discountPara > 0 ? `-${formatRsd(l.discountPara)}` : ''}</td>
              <td>
                <span className="label-tag">{l.label}</span>
              </td>
              <td className="num strong" data-testid="line-total">
                {formatRsd(lineTotal(l.unitPricePara, l.quantityMilli, l.discountPara))}
              </td>
              <td>
                <button
                  type="button"
                  className="icon danger"
                  aria-label={`${t('sale.remove')}: ${l.name}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    removeLine(i);
                  }}
                >
                  ✕
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function QuickKeys() {
  const { t } = useTranslation();
  const favourites = usePos((s) => s.favourites);
  const addProduct = usePos((s) => s.addProduct);
  const ref = useRef<HTMLElement>(null);
  // More keys than fit: the list scrolls, and a cue at its foot says so (hidden at the end of the list).
  const [more, setMore] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setMore(el.scrollTop + el.clientHeight < el.scrollHeight - 2);
    check();
    el.addEventListener('scroll', check);
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(check);
    resize?.observe(el);
    return () => {
      el.removeEventListener('scroll', check);
      resize?.disconnect();
    };
  }, [favourites.length]);
  if (favourites.length === 0) return null;
  return (
    <div className="quick-keys-box">
      <nav className="quick-keys" aria-label={t('sale.quickKeys')} ref={ref}>
        {favourites.map((p, i) => (
          <button
            key={p.id}
            type="button"
            onClick={() => addProduct(p)}
            aria-keyshortcuts={i < 9 ? `Alt+${i + 1}` : undefined}
            className={p.labelMissing ? 'flagged' : undefined}
            title={p.name}
          >
            <span className="qk-name">{p.name}</span>
            <span className="qk-price">
              {formatRsd(p.pricePara)}
              {i < 9 && <kbd>Alt+{i + 1}</kbd>}
            </span>
          </button>
        ))}
      </nav>
      {more && (
        <p className="qk-more" aria-hidden="true">
          {t('sale.moreQuickKeys')}
        </p>
      )}
    </div>
  );
}

/** The sale screen: search/scan, the cart, quick keys, actions and the total. */
export function SaleScreen() {
  const { t } = useTranslation();
  const { lines, selected, dialog, openDialog, setScreen, removeLine, clearCart } = usePosPick(
    'lines',
    'selected',
    'dialog',
    'openDialog',
    'setScreen',
    'removeLine',
    'clearCart',
  );
  const total = cartTotal(lines);
  const hasLine = selected >= 0 && selected < lines.length;
  // The till works in shifts and none is open: said above the cart, and Pay becomes „Отвори смену“.
  const noShift = usePos(needsShift);
  // The cart and its actions on the left; the total, the quick keys and Pay on the right. The actions sit in two
  // short rows under the cart, so the quick keys get the right column's height: at 1024×768 and 1366×768 at least
  // twelve are whole on screen, under a banner and a notice too (test/e2e/counter-fold.spec.ts).
  return (
    <main className="sale" aria-label={t('app.title')}>
      <section className="left">
        <SearchBox />
        {noShift && (
          <div className="shift-required" role="alert">
            <span>{t('shift.required')}</span>
            <ActionButton label={t('shift.openAction')} shortcut="Ctrl+S" onClick={() => openDialog('shift')} />
          </div>
        )}
        <Cart />
        <div className="actions sale-actions">
          <ActionButton
            label={t('action.search')}
            shortcut="F2"
            onClick={() => document.getElementById(SEARCH_ID)?.focus()}
          />
          <ActionButton label={t('action.manual')} shortcut="F3" onClick={() => openDialog('manual')} />
          <ActionButton
            label={t('action.quantity')}
            shortcut="F4"
            onClick={() => openDialog('quantity')}
            disabled={!hasLine}
          />
          <ActionButton
            label={t('action.price')}
            shortcut="F5"
            onClick={() => openDialog('price')}
            disabled={!hasLine}
          />
          <ActionButton
            label={t('action.discount')}
            shortcut="F6"
            onClick={() => openDialog('discount')}
            disabled={!hasLine}
          />
          <ActionButton
            label={t('action.remove')}
            shortcut="Delete"
            onClick={() => removeLine(selected)}
            disabled={!hasLine}
          />
          <ActionButton label={t('action.parked')} shortcut="F7" onClick={() => openDialog('parked')} />
          <ActionButton label={t('action.catalog')} shortcut="F8" onClick={() => setScreen('catalog')} />
          <ActionButton
            label={t('action.park')}
            shortcut="F9"
            onClick={() => openDialog('park')}
            disabled={lines.length === 0}
          />
          <ActionButton
            label={t('action.clear')}
            shortcut="Ctrl+Delete"
            onClick={clearCart}
            disabled={lines.length === 0}
            className="danger"
          />
        </div>
      </section>
      <section className="right">
        <div className="total" aria-live="polite">
          <span>{t('sale.total')}</span>
          <output aria-label={t('sale.total')} data-testid="cart-total">
            {formatRsd(total)}
          </output>
          <small>{t('sale.items', { count: lines.length })}</small>
        </div>
        <QuickKeys />
        {noShift ? (
          <ActionButton
            label={t('shift.openAction')}
            shortcut="F12"
            onClick={() => openDialog('shift')}
            className="primary pay"
          />
        ) : (
          <ActionButton
            label={t('action.pay')}
            shortcut="F12"
            onClick={() => setScreen('payment')}
            disabled={lines.length === 0}
            className="primary pay"
          />
        )}
      </section>
      {dialog === 'quantity' && <QuantityDialog />}
      {dialog === 'discount' && <DiscountDialog />}
      {dialog === 'price' && <PriceDialog />}
      {dialog === 'manual' && <ManualDialog />}
      {dialog === 'park' && <ParkDialog />}
      {dialog === 'parked' && <ParkedDialog />}
    </main>
  );
}
