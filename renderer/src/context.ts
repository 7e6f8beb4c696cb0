/** React access to the one store. */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { PosActions, PosState, PosStore } from './store.ts';

export const StoreContext = createContext<PosStore | null>(null);

/** Selects from the store provided by `<StoreContext.Provider>`. */
export function usePos<T>(selector: (state: PosState & PosActions) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('usePos outside StoreContext');
  return useStore(store, selector);
}

/** The store itself, for event handlers that read the latest state. */
export function usePosStore(): PosStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('usePosStore outside StoreContext');
  return store;
}
