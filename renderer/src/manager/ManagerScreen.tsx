/**
 * The manager's screens over the counter: refunds, advances, archive (detail, fiscal copy, e-mail,
 * lookup), staff, settings (API key: entered, never shown), report and audit log. Opened with the
 * "Менаџер" button or F11; while open, the counter's keyboard shortcuts are held back.
 */
import { useEffect, useRef, useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import { usePos } from '../context.ts';
import { useManagerT, type ManagerText } from './i18n.ts';
import { RefundTab } from './RefundTab.tsx';
import { AdvancesTab } from './AdvancesTab.tsx';
import { ArchiveTab } from './ArchiveTab.tsx';
import { AttentionTab } from './AttentionTab.tsx';
import { StaffTab } from './StaffTab.tsx';
import { SettingsTab } from './SettingsTab.tsx';
import { ReportsTab } from './ReportsTab.tsx';
import { ShiftsTab } from './ShiftsTab.tsx';
import { AuditTab } from './AuditTab.tsx';
import { HubTab } from './HubTab.tsx';
import { GoodsTab } from './GoodsTab.tsx';
import { SefTab } from './SefTab.tsx';
import { PricesTab } from './PricesTab.tsx';
import { BooksTab } from './BooksTab.tsx';
import { LabelsTab } from './LabelsTab.tsx';
import { ScreenHead } from '../ui/ScreenHead.tsx';
import { SelfApproval } from './common.tsx';
import './manager.css';

export { OrderResult } from './common.tsx';

type Tab =
  | 'refund'
  | 'advances'
  | 'archive'
  | 'attention'
  | 'goods'
  | 'prices'
  | 'sef'
  | 'staff'
  | 'settings'
  | 'reports'
  | 'books'
  | 'shifts'
  | 'audit'
  | 'hub'
  | 'labels';
const TABS: Tab[] = [
  'refund',
  'advances',
  'archive',
  'attention',
  'goods',
  'prices',
  'sef',
  'staff',
  'settings',
  'reports',
  'books',
  'shifts',
  'audit',
  'hub',
  'labels',
];
const isTab = (v: string | null): v is Tab => (TABS as string[]).includes(v ?? '');

/** The manager overlay. */
export function ManagerScreen(props: { api: PosApi; onClose: () => void; initialTab?: string }) {
  const lang = usePos((s) => s.language);
  const t = useManagerT(lang);
  const [tab, setTab] = useState<Tab>(isTab(props.initialTab ?? null) ? (props.initialTab as Tab) : 'refund');
  const [defaultPin, setDefaultPin] = useState(false);
  const checkDefault = () =>
    void props.api['staff.list']({}).then((r) => {
      if (r.ok) setDefaultPin(r.value.staff.some((s) => s.role === 'manager' && s.mustChangePin && s.active));
    });
  useEffect(checkDefault, [props.api]);
  // A manager logged in approves her own actions in the core: the PIN fields are optional for her.
  const selfApproves = usePos((s) => s.cashier?.role === 'manager' && !s.mustChangePin);
  return (
    <SelfApproval.Provider value={selfApproves}>
      <div className="mgr" role="dialog" aria-modal="true" aria-label={t('title')}>
        <ScreenHead
          title={t('title')}
          level={2}
          tabsLabel={t('tabs')}
          tabs={TABS.map((k) => ({ key: k, label: t(`tab_${k}` as ManagerText) }))}
          selected={tab}
          onSelect={setTab}
        >
          <button type="button" onClick={props.onClose}>
            {t('close')}
          </button>
        </ScreenHead>
        {defaultPin && (
          <p role="note" className="mgr-warn">
            {t('default_pin_warning')}
          </p>
        )}
        <div role="tabpanel" aria-label={t(`tab_${tab}` as ManagerText)} className="mgr-body">
          {tab === 'refund' && <RefundTab api={props.api} t={t} lang={lang} />}
          {tab === 'advances' && <AdvancesTab api={props.api} t={t} lang={lang} />}
          {tab === 'archive' && <ArchiveTab api={props.api} t={t} lang={lang} />}
          {tab === 'attention' && <AttentionTab api={props.api} t={t} lang={lang} />}
          {tab === 'goods' && <GoodsTab api={props.api} t={t} lang={lang} />}
          {tab === 'sef' && <SefTab api={props.api} t={t} lang={lang} />}
          {tab === 'prices' && <PricesTab api={props.api} t={t} lang={lang} />}
          {tab === 'staff' && <StaffTab api={props.api} t={t} onChanged={checkDefault} />}
          {tab === 'settings' && <SettingsTab api={props.api} t={t} lang={lang} />}
          {tab === 'reports' && <ReportsTab api={props.api} t={t} lang={lang} />}
          {tab === 'books' && <BooksTab api={props.api} t={t} lang={lang} />}
          {tab === 'shifts' && <ShiftsTab api={props.api} t={t} lang={lang} />}
          {tab === 'audit' && <AuditTab api={props.api} t={t} lang={lang} />}
          {tab === 'hub' && <HubTab api={props.api} t={t} lang={lang} />}
          {tab === 'labels' && <LabelsTab api={props.api} t={t} lang={lang} />}
        </div>
      </div>
    </SelfApproval.Provider>
  );
}

/**
 * The "Менаџер" button and F11, and the overlay. While the overlay is open the counter's shortcuts are
 * held back (this listener is registered before the counter's, so it sees keys first); Escape closes it.
 */
export function ManagerLauncher(props: { api: PosApi }) {
  const t = useManagerT(usePos((s) => s.language));
  const loggedIn = usePos((s) => s.cashier !== null);
  const tab = usePos((s) => s.managerTab);
  const openManager = usePos((s) => s.openManager);
  const closeManager = usePos((s) => s.closeManager);
  const openRef = useRef(false);
  const loggedInRef = useRef(false);
  useEffect(() => {
    openRef.current = tab !== null;
    loggedInRef.current = loggedIn;
  }, [tab, loggedIn]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F11' && loggedInRef.current) {
        e.preventDefault();
        e.stopImmediatePropagation();
        if (openRef.current) closeManager();
        else openManager();
        return;
      }
      if (!openRef.current) return;
      // Escape inside a dialog of the manager screens closes that dialog (its own handler stops the key
      // there), not the whole manager screen.
      if (e.key === 'Escape' && e.target instanceof Element && e.target.closest('[aria-modal="true"]:not(.mgr)'))
        return;
      e.stopImmediatePropagation();
      if (e.key === 'Escape') closeManager();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [openManager, closeManager]);
  // The manager screens open over a till someone is logged in to.
  if (!loggedIn) return null;
  return (
    <>
      <button type="button" className="mgr-open" onClick={() => openManager()}>
        {t('open')}
      </button>
      {tab !== null && <ManagerScreen api={props.api} onClose={closeManager} initialTab={tab} />}
    </>
  );
}
