/**
 * The header of a manager's screen, the same at the till (the Менаџер overlay) and at the hub UI: the screen's
 * title, its tab bar (a tablist whose tabs wrap onto a second row on a narrow window) and what sits at its end.
 */
import type { ReactNode } from 'react';
import './screen.css';

export function ScreenHead<K extends string>(props: {
  title: string;
  /** The page's own heading (the hub's page) or one under the app's (the till's overlay). */
  level: 1 | 2;
  /** The tab bar's accessible name. */
  tabsLabel: string;
  tabs: readonly { key: K; label: string }[];
  /** The tab shown; null while none is (the hub's login). */
  selected: K | null;
  onSelect: (key: K) => void;
  children?: ReactNode;
}) {
  const Heading = props.level === 1 ? 'h1' : 'h2';
  return (
    <header className="mgr-head">
      <Heading>{props.title}</Heading>
      {props.tabs.length > 0 && (
        <nav aria-label={props.tabsLabel} role="tablist">
          {props.tabs.map(({ key, label }) => (
            <button
              key={key}
              type="button"
              role="tab"
              aria-selected={props.selected === key}
              onClick={() => props.onSelect(key)}
            >
              {label}
            </button>
          ))}
        </nav>
      )}
      {props.children}
    </header>
  );
}
