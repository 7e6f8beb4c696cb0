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
