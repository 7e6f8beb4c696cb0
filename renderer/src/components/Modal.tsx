import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog: labelled by its title, Esc closes it, focus starts on the field marked `data-autofocus`, else
 * on its first field (a dialog whose first control is a choice, like the discount's scope, marks the value).
 */
export function Modal(props: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const first =
      ref.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      ref.current?.querySelector<HTMLElement>('input, select, button:not([data-close])') ??
      ref.current?.querySelector<HTMLElement>('button');
    first?.focus();
    if (first instanceof HTMLInputElement) first.select();
  }, []);
  return (
    <div className="backdrop">
      <div
        ref={ref}
        className={`modal${props.wide ? ' wide' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            props.onClose();
          }
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
      </div>
    </div>
  );
}
