/** What the manager screens' component tests do to a form: typing into a field as a person would. */
import { act } from 'react';

/**
 * Types a value into a text field: React tracks the value through the native setter, so it is set there and an
 * `input` event is fired for the field's change handler to see.
 */
export function type(el: HTMLInputElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** The control of a manager field (`Field`: a label whose first text is the field's name), or null. */
export function fieldControl<E extends Element = HTMLInputElement>(
  scope: ParentNode,
  label: string,
  tag: 'input' | 'select' = 'input',
): E | null {
  const l = [...scope.querySelectorAll('label')].find((x) => x.querySelector('span')?.textContent === label);
  return l?.querySelector<E>(tag) ?? null;
}

/** The button whose text is exactly `text`, if there is one. */
export function buttonNamed(scope: ParentNode, text: string): HTMLButtonElement | undefined {
  return [...scope.querySelectorAll('button')].find((b) => b.textContent === text);
}
