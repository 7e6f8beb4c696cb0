/**
 * The customer display (docs/payments.md, "The customer display"): what the customer sees on a tablet or a second
 * screen, in large type, in the display's own language (not the cashier's): idle, the shop's name; the cart as it
 * is built, each line with its quantity, price and promotion, and the total; the IPS QR code while the cashier's
 * IPS dialog is open; after the receipt the amount paid, the change and „Хвала“.
 */
import { useEffect, useRef, useState } from 'react';
import type { DisplayFrame } from '../../../shared/contract/index.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatQuantity, formatRsd } from '../../../shared/money.ts';
import { IpsQr } from '../components/IpsPayment.tsx';
import { uiMessages } from '../i18n/ui.ts';
import type { DisplayConnect } from './feed.ts';
import './display.css';

type Words = (typeof uiMessages)['sr-Cyrl']['display'];

export function DisplayScreen(props: { connect: DisplayConnect; language: Language }) {
  const [language, setLanguage] = useState<Language>(props.language);
  const [frame, setFrame] = useState<DisplayFrame | null>(null);
  const [refused, setRefused] = useState(false);
  useEffect(
    () =>
      props.connect({
        frame: (f) => {
          setRefused(false);
          setFrame(f);
        },
        language: setLanguage,
        refused: () => setRefused(true),
      }),
    [props],
  );
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const w = uiMessages[language].display;
  return (
    <main className={`customer-display phase-${frame?.phase ?? 'none'}`} aria-label={w.title}>
      {refused ? (
        <p role="alert" className="cd-message">
          {w.noToken}
        </p>
      ) : !frame ? (
        <p role="status" className="cd-message">
          {w.connecting}
        </p>
      ) : (
        <Frame frame={frame} w={w} />
      )}
    </main>
  );
}

function Money(props: { label: string; para: number; testId: string; big?: boolean }) {
  return (
    <div className={props.big ? 'cd-sum cd-big' : 'cd-sum'}>
      <dt>{props.label}</dt>
      <dd data-testid={props.testId}>{formatRsd(props.para)} RSD</dd>
    </div>
  );
}

function Frame({ frame, w }: { frame: DisplayFrame; w: Words }) {
  switch (frame.phase) {
    case 'idle':
      return (
        <div className="cd-idle">
          <h1 data-testid="display-shop">{frame.shopName}</h1>
          <p>{w.welcome}</p>
        </div>
      );
    case 'thanks':
      return (
        <div className="cd-thanks">
          <h1 data-testid="display-thanks">{w.thanks}</h1>
          <dl>
            <Money label={w.total} para={frame.totalPara} testId="display-total" />
            {frame.paidPara !== undefined && <Money label={w.paid} para={frame.paidPara} testId="display-paid" />}
            {frame.changePara !== undefined && (
              <Money label={w.change} para={frame.changePara} testId="display-change" big />
            )}
          </dl>
          <p>{w.goodbye}</p>
        </div>
      );
    case 'ips':
      return (
        <div className="cd-ips">
          {frame.ips && (
            <div className="cd-ips-code">
              <IpsQr payload={frame.ips.payload} label={w.qr} scale={10} />
            </div>
          )}
          <div className="cd-ips-text">
            <p className="cd-scan">{w.scan}</p>
            <dl>
              <Money label={w.toPay} para={frame.ips?.amountPara ?? frame.totalPara} testId="display-total" big />
              {frame.ips && (
                <div className="cd-sum">
                  <dt>{w.payee}</dt>
                  <dd>{frame.ips.name}</dd>
                </div>
              )}
            </dl>
          </div>
        </div>
      );
    default:
      return <Cart frame={frame} w={w} />;
  }
}

function Cart({ frame, w }: { frame: DisplayFrame; w: Words }) {
  const bottom = useRef<HTMLTableRowElement>(null);
  // Braces: scrollIntoView may return a promise, which an effect must not return.
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [frame.lines.length]);
  return (
    <div className="cd-cart">
      <div className="cd-lines">
        <table aria-label={w.lines}>
          <thead>
            <tr>
              <th scope="col">{w.item}</th>
              <th scope="col" className="num">
                {w.quantity}
              </th>
              <th scope="col" className="num">
                {w.price}
              </th>
              <th scope="col" className="num">
                {w.amount}
              </th>
            </tr>
          </thead>
          <tbody>
            {frame.lines.map((l, i) => (
              <tr key={i} ref={i === frame.lines.length - 1 ? bottom : undefined} data-testid="display-line">
                <td>
                  {l.name}
                  {l.promotion && <span className="cd-promotion">{l.promotion}</span>}
                </td>
                <td className="num">{formatQuantity(l.quantityMilli)}</td>
                <td className="num">{formatRsd(l.unitPara)}</td>
                <td className="num">{formatRsd(l.totalPara)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="cd-total">
        <Money
          label={frame.phase === 'payment' ? w.toPay : w.total}
          para={frame.totalPara}
          testId="display-total"
          big
        />
      </dl>
    </div>
  );
}
