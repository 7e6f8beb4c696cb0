/**
 * A React root in a fresh container for each test of a file, unmounted and removed after it: call
 * `testRoot()` once at the top of a component test file (it registers the hooks).
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface TestRoot {
  readonly container: HTMLDivElement;
  readonly root: Root;
}

export function testRoot(): TestRoot {
  let current: { container: HTMLDivElement; root: Root } | null = null;
  beforeEach(() => {
    const container = document.createElement('div');
    document.body.append(container);
    current = { container, root: createRoot(container) };
  });
  afterEach(() => {
    const c = current;
    if (!c) return;
    act(() => c.root.unmount());
    c.container.remove();
    current = null;
  });
  const get = () => {
    if (!current) throw new Error('testRoot: no test is running');
    return current;
  };
  return {
    get container() {
      return get().container;
    },
    get root() {
      return get().root;
    },
  };
}

/**
 * Types `value` into a text control as a person does, for React to see: through the element's own value setter
 * (React tracks the one on the prototype) and an input event, inside `act`.
 */
export function typeInto(input: HTMLInputElement, value: string): void {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Picks the option `value` in a select as a person does, for React to see: a change event, inside `act`. */
export function chooseOption(select: HTMLSelectElement | null, value: string): void {
  if (!select) throw new Error('chooseOption: no select');
  act(() => {
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}
