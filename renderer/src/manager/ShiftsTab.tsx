/**
 * The manager's view of the day's shifts (смене): who had the drawer and when, the float, the cash the
 * sales brought, cash in and out, what the drawer should hold, what was counted and the difference (short
 * in red), each printable again as its shift report (non-fiscal). The core decides who may see it
 * (`shifts.list` wants a manager's PIN).
 */
import { useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { ShiftView } from '../../../shared/contract/shifts.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatRsd } from '../../../shared/money.ts';
import { formatMoment } from '../../../shared/i18n/time.ts';
import { isoDay as shopDay } from '../dates.ts';
import { call, dayOrRefuse, pinOf, useAction, NoteAndAlert, PinInput, RowForm, SubmitButton } from './common.tsx';
import { ColumnTable } from './ColumnTable.tsx';
import { DateField } from './DateField.tsx';
import type { ManagerT } from './i18n.ts';

export function ShiftsTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [day, setDay] = useState<string | null>(() => shopDay(new Date()));
  const [pin, setPin] = useState('');
  const [shown, setShown] = useState<{ day: string; shifts: ShiftView[] } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  // A time of the day shown is enough; a shift open across midnight also says the date. In the shop's zone.
  const when = (iso: string): string => formatMoment(iso, lang, { timeOnly: shopDay(new Date(iso)) === shown?.day });
  const differenceText = (para: number | null): string =>
    para === null
      ? '—'
      : para < 0
        ? `${formatRsd(para)} ${t('shifts_short')}`
        : para > 0
          ? `${formatRsd(para)} ${t('shifts_over')}`
          : formatRsd(para);
  const show = () =>
    void run(async () => {
      const chosen = dayOrRefuse(t, day, t('shifts_day'));
      const { shifts } = await call(api['shifts.list']({ ...pinOf(pin), day: chosen }));
      setShown({ day: chosen, shifts });
      setPin('');
      setNote(null);
    });
  return (
    <div className="mgr-tab">
      <RowForm onSubmit={show} label={t('shifts_title')}>
        <DateField t={t} lang={lang} label={t('shifts_day')} value={day} onChange={setDay} required />
        <PinInput selfApproves t={t} value={pin} onChange={setPin} />
        <SubmitButton busy={busy}>{t('show')}</SubmitButton>
      </RowForm>
      {shown &&
        (shown.shifts.length === 0 ? (
          <p>{t('shifts_none')}</p>
        ) : (
          <div className="mgr-shifts">
            <ColumnTable
              label={t('shifts_title')}
              rows={shown.shifts}
              rowKey={(s) => s.id}
              columns={[
                { header: t('shifts_cashier'), names: true, cell: (s) => s.cashier },
                { header: t('shifts_opened'), cell: (s) => when(s.openedAt) },
                { header: t('shifts_closed'), cell: (s) => (s.closedAt ? when(s.closedAt) : t('shifts_still_open')) },
                { header: t('shifts_float'), num: true, cell: (s) => formatRsd(s.openingFloatPara) },
                { header: t('shifts_cash_sales'), num: true, cell: (s) => formatRsd(s.cashSalesPara) },
                { header: t('shifts_cash_in'), num: true, cell: (s) => formatRsd(s.cashInPara) },
                { header: t('shifts_cash_out'), num: true, cell: (s) => formatRsd(s.cashOutPara) },
                { header: t('shifts_expected'), num: true, cell: (s) => formatRsd(s.expectedPara) },
                {
                  header: t('shifts_counted'),
                  num: true,
                  cell: (s) => (s.countedPara === null ? '—' : formatRsd(s.countedPara)),
                },
                {
                  header: t('shifts_difference'),
                  num: true,
                  className: (s) => (s.differencePara !== null && s.differencePara < 0 ? 'mgr-short' : undefined),
                  cell: (s) => differenceText(s.differencePara),
                },
                {
                  header: '',
                  cell: (s) => (
                    <button
                      type="button"
                      disabled={busy}
                      aria-label={t('shifts_print_one', { name: s.cashier, time: when(s.openedAt) })}
                      onClick={() =>
                        void run(async () => {
                          await call(api['shifts.print']({ shiftId: s.id }));
                          setNote(t('printed'));
                        })
                      }
                    >
                      {t('print')}
                    </button>
                  ),
                },
              ]}
            />
          </div>
        ))}
      <NoteAndAlert note={note} error={error} />
    </div>
  );
}
