/** React access to the one store. */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { PosActions, PosState, PosStore } from './store/index.ts';

export const StoreContext = createContext<PosStore | null>(null);

/** Selects from the store provided by `<StoreContext.Provider>`. */
export function usePos<T>(selector: (state: PosState & PosActions) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('usePos outside StoreContext');
  return useStore(store, selector);
}

/**
 * Several fields of the store at once, by name. The component re-renders when one of them changes, as it would
 * with one `usePos` a field (the picked object is compared field by field).
 */
export function usePosPick<K extends keyof (PosState & PosActions)>(...keys: K[]): Pick<PosState & PosActions, K> {
  return usePos(useShallow((s) => Object.fromEntries(keys.map((k) => [k, s[k]])) as Pick<PosState & PosActions, K>));
}

/** The store itself, for event handlers that read the latest state. */
export function usePosStore(): PosStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('usePosStore outside StoreContext');
  return store;
}
