import { useEffect } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import type { i18n } from 'i18next';
import type { PosApi } from '../../shared/contract/index.ts';
import { StoreContext, usePos, usePosPick } from './context.ts';
import { createScanDetector, looksLikeBarcode } from './scanner.ts';
import { needsShift, type PosStore } from './store/index.ts';
import { CatalogScreen } from './components/CatalogScreen.tsx';
import { PaymentScreen } from './components/PaymentScreen.tsx';
import { ReceiptScreen } from './components/ReceiptScreen.tsx';
import { ShiftDialog } from './components/ShiftDialog.tsx';
import { SEARCH_ID, SaleScreen } from './components/SaleScreen.tsx';
import { StatusBar } from './components/StatusBar.tsx';
import { LpfrChip } from './components/LpfrChip.tsx';
import { PrintConfirmDialog } from './components/PrintConfirmDialog.tsx';
import { LoginScreen } from './components/LoginScreen.tsx';
import { SetupFlow } from './components/SetupFlow.tsx';
import { ApprovalDialog } from './components/ApprovalDialog.tsx';
import { ManagerLauncher } from './manager/ManagerScreen.tsx';

function isTextField(el: EventTarget | null): boolean {
  if (el instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'file'].includes(el.type);
  return el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
}

/**
 * The keyboard of the counter: a scanner (fast digits + Enter) adds the item from anywhere on the sale or
 * receipt screen; stray typing goes to the search box; F-keys run the actions shown on the buttons.
 */
export function installKeyboard(store: PosStore, win: Window = window): () => void {
  const detector = createScanDetector();
  const focusSearch = () => win.document.getElementById(SEARCH_ID)?.focus();
  const onKey = (e: KeyboardEvent) => {
    const s = store.getState();
    const printable = e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey;
    const inText = isTextField(e.target);
    const isSearch = e.target instanceof HTMLElement && e.target.id === SEARCH_ID;
    // Nobody logged in: the login screen has the keyboard to itself; so have the manager screens and setup.
    if (s.cashier === null || s.managerTab !== null || s.setupPin !== null) return;
    if (printable) detector.key(e.key, e.timeStamp);
    // The printer's question („Да ли је рачун одштампан?“) is a dialog too: answered before anything else.
    const asking = s.printer?.confirm != null;
    if (s.dialog !== null || asking || (s.screen !== 'sale' && s.screen !== 'receipt')) {
      if (e.key === 'Enter') detector.reset();
      if (s.dialog !== null && e.key === 'Escape') {
        e.preventDefault();
        s.openDialog(null);
      }
      return;
    }
    // A handled key goes no further: the screen it opens must not receive it too.
    const run = (fn: () => void) => {
      e.preventDefault();
      e.stopPropagation();
      fn();
    };
    if (e.key === 'F1') return run(() => void s.logout());
    // Ctrl+S: the shift (смена / smena / shift), by the key's place, so a Cyrillic layout types it too.
    if (e.ctrlKey && !e.altKey && e.code === 'KeyS') return run(() => s.openDialog('shift'));
    if (s.screen === 'receipt') {
      // Typing in a field of the receipt screen (the e-mail address) belongs to that field.
      if (inText && (printable || e.key === 'Enter' || e.key === 'Escape' || e.key === 'Backspace')) return;
      if (e.key === 'Enter' || e.key === 'F12' || e.key === 'F10' || e.key === 'Escape') {
        detector.reset();
        return run(() => s.newSale());
      }
      if (printable && !inText && /\d/.test(e.key)) {
        // Scanning the next customer's first item starts the next sale.
        e.preventDefault();
        e.stopPropagation();
        s.newSale();
        void store.getState().setQuery(e.key);
        win.requestAnimationFrame(focusSearch);
      }
      return;
    }
    // The sale screen.
    if (e.key === 'Enter' && (isSearch || !inText)) {
      // The search box holds every key of a scan (stray keys are routed there); the detector's timing
      // only decides for short codes, which a person might also type as a search.
      const code = detector.enter(e.timeStamp);
      const query = s.query.trim();
      if (looksLikeBarcode(query)) {
        e.preventDefault();
        void s.scan(query);
      } else if (code && query.endsWith(code)) {
        e.preventDefault();
        void s.scan(code);
      } else if (query !== '') {
        e.preventDefault();
        void s.submitSearch();
      }
      return;
    }
    const line = s.selected >= 0 && s.selected < s.lines.length;
    if (e.altKey && /^[1-9]$/.test(e.key)) {
      const p = s.favourites[Number(e.key) - 1];
      if (p) run(() => s.addProduct(p));
      return;
    }
    switch (e.key) {
      case 'F2':
        return run(focusSearch);
      case 'F3':
        return run(() => s.openDialog('manual'));
      case 'F4':
        return run(() => line && s.openDialog('quantity'));
      case 'F5':
        return run(() => line && s.openDialog('price'));
      case 'F6':
        return run(() => line && s.openDialog('discount'));
      case 'F7':
        return run(() => s.openDialog('parked'));
      case 'F8':
        return run(() => s.setScreen('catalog'));
      case 'F9':
        return run(() => s.lines.length > 0 && s.openDialog('park'));
      case 'F10':
      case 'F12':
        // No shift where the till works in shifts: the core would refuse the sale; open one first.
        if (needsShift(s)) return run(() => s.openDialog('shift'));
        return run(() => s.lines.length > 0 && s.setScreen('payment'));
      case 'Escape':
        return run(() => (s.query !== '' ? void s.setQuery('') : s.setNotice(null)));
      case 'Delete':
        if (e.ctrlKey) return run(() => s.clearCart());
        if (!inText || (isSearch && s.query === '')) return run(() => line && s.removeLine(s.selected));
        return;
      case 'ArrowUp':
      case 'ArrowDown':
        if (s.results.length === 0 && (!inText || isSearch))
          return run(() => s.select(s.selected + (e.key === 'ArrowUp' ? -1 : 1)));
        return;
      case '+':
        if (line && isSearch && s.query === '') {
          const l = s.lines[s.selected];
          if (l?.unit === 'piece') return run(() => s.setQuantity(s.selected, l.quantityMilli + 1000));
        }
        break;
      case '-':
        if (line && isSearch && s.query === '') {
          const l = s.lines[s.selected];
          if (l?.unit === 'piece' && l.quantityMilli > 1000)
            return run(() => s.setQuantity(s.selected, l.quantityMilli - 1000));
        }
        break;
    }
    if (printable && !inText) {
      e.preventDefault();
      void s.setQuery(s.query + e.key);
      focusSearch();
    }
  };
  win.addEventListener('keydown', onKey, true);
  return () => win.removeEventListener('keydown', onKey, true);
}

function Banners() {
  const { t } = useTranslation();
  const demo = usePos((s) => s.info?.mode === 'demo' || s.info?.demoAccount === true);
  const training = usePos((s) => s.info?.trainingMode ?? false);
  const clockWarning = usePos((s) => s.sync?.clockWarning ?? null);
  // Without the gateway (and no processor on the LAN that signs offline) no receipt is fiscal: said where
  // the cashier looks, not only in the status bar (docs/manager.md, "Selling without the internet").
  const offline = usePos((s) => s.sync !== null && !s.sync.online && s.sync.paused === null);
  // With a ready L-PFR the receipts stay fiscal while the internet is down: a calm note instead of the warning.
  const lpfrSigns = usePos((s) => s.sync?.lpfr === 'ready');
  // The shop's choice (offlineSales, decided in the core at checkout): the banner says which applies.
  const refused = usePos((s) => s.info?.offlineSales === 'refused');
  return (
    <>
      {demo && (
        <div className="banner demo" role="note" data-testid="demo-banner">
          {t('banner.demo')}
        </div>
      )}
      {training && (
        <div className="banner training" role="note" data-testid="training-banner">
          {t('banner.training')}
        </div>
      )}
      {offline && !lpfrSigns && (
        <div
          className="banner offline"
          role="note"
          data-testid="offline-banner"
          data-offline-sales={refused ? 'refused' : 'allowed'}
        >
          {t(refused ? 'banner.offlineRefused' : 'banner.offline')}
        </div>
      )}
      {offline && lpfrSigns && (
        <div className="banner offline-lpfr" role="note" data-testid="offline-lpfr-banner">
          {t('lpfr.offlineBanner')}
        </div>
      )}
      {clockWarning && (
        <div className="banner clock" role="alert" data-testid="clock-warning">
          {t('banner.clock', { message: clockWarning })}
        </div>
      )}
    </>
  );
}

function NoticeBar() {
  const { t } = useTranslation();
  const notice = usePos((s) => s.notice);
  const setNotice = usePos((s) => s.setNotice);
  if (!notice) return null;
  return (
    <div className={`notice ${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      <span>{t(notice.key, notice.params ?? {})}</span>
      <button type="button" className="icon" aria-label={t('action.cancel')} onClick={() => setNotice(null)}>
        ✕
      </button>
    </div>
  );
}

/**
 * Where the cashier stands: the shop's and the till's names as the owner set them (setup flow, Менаџер →
 * Подешавања), the terminal id after them in small type (it is on the receipts and in the order numbers).
 * A till without names shows the terminal id alone. Long names are cut with an ellipsis (the whole line is
 * the title) so the header stays one line at 1024 px.
 */
export function TillPlace(props: { shopName?: string; tillName?: string; terminalId: string }) {
  const { t } = useTranslation();
  const shop = props.shopName?.trim() ?? '';
  const till = props.tillName?.trim() ?? '';
  const terminal = t('app.terminal', { id: props.terminalId });
  if (shop === '' && till === '')
    return (
      <span className="terminal" data-testid="till-place" title={terminal}>
        {props.terminalId}
      </span>
    );
  return (
    <span className="place" data-testid="till-place" title={[shop, till, terminal].filter((x) => x !== '').join(' · ')}>
      {shop !== '' && <strong className="shop">{shop}</strong>}
      {till !== '' && <span className="till">{till}</span>}
      <span className="terminal">{props.terminalId}</span>
    </span>
  );
}

function Header(props: { api: PosApi }) {
  const { t } = useTranslation();
  const { info, cashier, requestApproval, shift, openDialog } = usePosPick(
    'info',
    'cashier',
    'requestApproval',
    'shift',
    'openDialog',
  );
  const training = info?.trainingMode ?? false;
  return (
    <header className="top">
      <span className="brand">{t('app.title')}</span>
      {info && <TillPlace shopName={info.shopName} tillName={info.tillName} terminalId={info.terminalId} />}
      <span className="spacer" />
      {/* The L-PFR's state, when one is set up (the status bar has no room left for it). */}
      <LpfrChip />
      {cashier && info && (
        // The core's training mode, switched only with a manager's PIN.
        <button
          type="button"
          aria-pressed={training}
          className={training ? 'training-on' : undefined}
          onClick={() => requestApproval({ kind: 'training', on: !training })}
        >
          {t('action.training')}
        </button>
      )}
      {cashier && info && (
        <button
          type="button"
          className={shift ? 'shift-on' : 'shift-off'}
          onClick={() => openDialog('shift')}
          aria-keyshortcuts="Control+S"
        >
          {shift ? t('shift.open') : t('shift.none')} <kbd>Ctrl+S</kbd>
        </button>
      )}
      <ManagerLauncher api={props.api} />
    </header>
  );
}

function Screens(props: { api: PosApi }) {
  const { t } = useTranslation();
  const { screen, info, cashier, bootError, setupPin } = usePosPick(
    'screen',
    'info',
    'cashier',
    'bootError',
    'setupPin',
  );
  if (bootError) {
    return (
      <main className="boot" role="alert">
        {t('app.noConnection', { message: bootError })}
      </main>
    );
  }
  if (!info) return <main className="boot">{t('app.loading')}</main>;
  if (!cashier) return <LoginScreen />;
  // A new till's manager sets it up first (shown once; see SetupFlow).
  if (setupPin !== null) return <SetupFlow api={props.api} />;
  switch (screen) {
    case 'sale':
      return <SaleScreen />;
    case 'payment':
      return <PaymentScreen />;
    case 'receipt':
      return <ReceiptScreen api={props.api} />;
    case 'catalog':
      return <CatalogScreen api={props.api} />;
  }
}

/** The shift dialog (the header's shift button), over the counter. */
function ShiftHost(props: { api: PosApi }) {
  const dialog = usePos((s) => s.dialog);
  return dialog === 'shift' ? <ShiftDialog api={props.api} /> : null;
}

/** The manager-PIN prompt, over whatever screen asked for it. */
function ApprovalHost() {
  const dialog = usePos((s) => s.dialog);
  const approval = usePos((s) => s.approval);
  return dialog === 'approval' && approval ? <ApprovalDialog approval={approval} /> : null;
}

function LanguageSync(props: { i18n: i18n }) {
  const language = usePos((s) => s.language);
  useEffect(() => {
    if (props.i18n.language !== language) void props.i18n.changeLanguage(language);
    document.documentElement.lang = language;
  }, [language, props.i18n]);
  return null;
}

/** The whole counter UI over one store and transport. */
export function App(props: { store: PosStore; api: PosApi; i18n: i18n }) {
  const { store } = props;
  useEffect(() => installKeyboard(store), [store]);
  useEffect(() => {
    let off: (() => void) | undefined;
    let cancelled = false;
    void store
      .getState()
      .init()
      .then((unsubscribe) => {
        if (cancelled) unsubscribe();
        else off = unsubscribe;
      });
    return () => {
      cancelled = true;
      off?.();
    };
  }, [store]);
  return (
    <I18nextProvider i18n={props.i18n}>
      <StoreContext.Provider value={store}>
        <LanguageSync i18n={props.i18n} />
        <div className="app">
          <Banners />
          <Header api={props.api} />
          <NoticeBar />
          <Screens api={props.api} />
          <ShiftHost api={props.api} />
          <ApprovalHost />
          <PrintConfirmDialog api={props.api} />
          <StatusBar />
        </div>
      </StoreContext.Provider>
    </I18nextProvider>
  );
}
