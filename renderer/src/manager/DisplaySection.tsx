/**
 * Менаџер → Подешавања → Екран за купца (docs/payments.md, "The customer display"): the manager makes an address
 * for a tablet on the shop's network — a display-only token in the URL's fragment, shown once as text and as a QR
 * code the tablet scans — in the display's own language, lists the displays made and revokes one.
 */
import { useEffect, useState } from 'react';
import type { DisplayTokenView, PosApi } from '../../../shared/contract/index.ts';
import type { Language } from '../../../shared/domain.ts';
import { IpsQr } from '../components/IpsPayment.tsx';
import type { ManagerT } from './i18n.ts';
import {
  ApprovedForm,
  LANGUAGE_NAMES,
  LanguageOptions,
  MgrTable,
  NoteAndAlert,
  call,
  localTime,
  pinOf,
  useRunner,
} from './common.tsx';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function DisplaySection(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [tokens, setTokens] = useState<DisplayTokenView[] | null>(null);
  const [form, setForm] = useState({ label: '', language: 'sr-Cyrl' as Language });
  const [revokeId, setRevokeId] = useState('');
  const [made, setMade] = useState<{ label: string; url: string } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, runner] = useRunner(t);
  // Both forms: the manager logged in is not asked for her PIN again.
  const formProps = { runner, selfApproves: true } as const;
  const reload = async (managerPin = ''): Promise<void> => {
    const r = await api['display.tokens'](pinOf(managerPin));
    if (r.ok) setTokens(r.value.tokens);
  };
  useEffect(() => {
    // A manager logged in sees the list at once; anyone else after their PIN made or revoked one.
    void api['display.tokens']({}).then((r) => {
      if (r.ok) setTokens(r.value.tokens);
    });
  }, [api]);
  // The tablet opens the browser host's /display; Electron serves no network address (its display is a window).
  const hosted = typeof window !== 'undefined' && !window.pos;
  const active = (tokens ?? []).filter((d) => d.revokedAt === null);
  return (
    <section className="mgr-display" aria-label={t('display_title')}>
      <h3>{t('display_title')}</h3>
      <p className="mgr-hint">{t('display_hint')}</p>
      {!hosted && <p className="mgr-hint">{t('display_electron')}</p>}
      {hosted && LOOPBACK.has(window.location.hostname) && (
        <p className="mgr-hint">{t('display_local', { host: window.location.host })}</p>
      )}
      <ApprovedForm
        {...formProps}
        label={t('display_create')}
        button={t('display_create')}
        idPrefix="display"
        labels={{ label: t('display_label'), language: t('display_language') }}
        onSubmit={async (managerPin) => {
          setNote(null);
          setMade(null);
          const v = await call(api['display.tokenCreate']({ ...pinOf(managerPin), ...form }));
          const url = `${new URL('/display', window.location.href).href}#token=${v.token}`;
          setMade({ label: v.label, url });
          setForm({ ...form, label: '' });
          await reload(managerPin);
        }}
      >
        {(field) => (
          <>
            {field('label', (p) => (
              <input
                autoComplete="off"
                maxLength={60}
                value={form.label}
                {...p}
                onChange={(e) => setForm({ ...form, label: e.target.value })}
              />
            ))}
            {field('language', (p) => (
              <select
                {...p}
                value={form.language}
                onChange={(e) => setForm({ ...form, language: e.target.value as Language })}
              >
                <LanguageOptions />
              </select>
            ))}
          </>
        )}
      </ApprovedForm>
      {made && (
        <div className="mgr-display-made">
          <p role="status">{t('display_created', { label: made.label })}</p>
          {hosted && (
            <>
              <label>
                {t('display_url')}
                <input readOnly value={made.url} size={60} onFocus={(e) => e.target.select()} />
              </label>
              <IpsQr payload={made.url} label={t('display_qr')} scale={4} />
            </>
          )}
        </div>
      )}
      {tokens && (
        <MgrTable
          label={t('display_list')}
          headers={[t('display_col_name'), t('display_col_language'), t('display_col_made'), t('display_col_state')]}
        >
          {tokens.length === 0 ? (
            <tr>
              <td colSpan={4}>{t('display_none')}</td>
            </tr>
          ) : (
            tokens.map((d) => (
              <tr key={d.id}>
                <td>{d.label}</td>
                <td>{LANGUAGE_NAMES[d.language]}</td>
                <td>{localTime(d.createdAt, lang)}</td>
                <td>
                  {d.revokedAt ? t('display_revoked', { at: localTime(d.revokedAt, lang) }) : t('display_active')}
                </td>
              </tr>
            ))
          )}
        </MgrTable>
      )}
      {active.length > 0 && (
        <ApprovedForm
          {...formProps}
          label={t('display_revoke')}
          button={t('display_revoke')}
          idPrefix="display-revoke"
          labels={{ id: t('display_label') }}
          onSubmit={async (managerPin) => {
            setNote(null);
            const chosen = active.find((d) => String(d.id) === revokeId) ?? active[0];
            if (!chosen) return;
            const v = await call(api['display.tokenRevoke']({ ...pinOf(managerPin), id: chosen.id }));
            setNote(t('display_revoked_note', { label: v.label }));
            setMade(null);
            await reload(managerPin);
          }}
        >
          {(field) =>
            field('id', (p) => (
              <select
                {...p}
                value={revokeId || String(active[0]?.id ?? '')}
                onChange={(e) => setRevokeId(e.target.value)}
              >
                {active.map((d) => (
                  <option key={d.id} value={String(d.id)}>
                    {d.label}
                  </option>
                ))}
              </select>
            ))
          }
        </ApprovedForm>
      )}
      <NoteAndAlert note={note} error={error} />
    </section>
  );
}
