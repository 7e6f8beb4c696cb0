/**
 * What the store's slices share besides the state itself: the transport, the till's UI storage, the counters
 * that are not state (line keys, the saved cart's revision), and the one way a core error becomes a notice.
 * Every slice is a zustand `StateCreator` over the whole store, so any slice may read and set any field;
 * each field is declared (and initialised) by the one slice that owns it.
 */
import type { StateCreator, StoreApi } from 'zustand/vanilla';
import type { AppError, PosApi, Result } from '../../../shared/contract/index.ts';
import type { PosActions, PosState } from './index.ts';

/** The whole store: every slice's state and actions. */
export type PosFull = PosState & PosActions;

/** One slice: its own fields and actions, built with the whole store's `set` and `get`. */
export type SliceCreator<T> = StateCreator<PosFull, [], [], T>;

/** The store's `set` and `get`, for helpers that slices share. */
export type SetPos = StoreApi<PosFull>['setState'];
export type GetPos = StoreApi<PosFull>['getState'];

/** A message for the cashier: an i18n key and its parameters. */
export interface Notice {
  kind: 'error' | 'info';
  key: string;
  params?: Record<string, string | number>;
}

/** Where the counter keeps its per-till UI choices (localStorage in the app). */
export interface UiStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The localStorage key of the till's UI language. */
export const LANGUAGE_KEY = 'kasa.language';

/** What one store's slices share that is not state. One kit per store. */
export interface StoreKit {
  api: PosApi;
  storage: UiStorage | undefined;
  /** The language the store starts in (the till's stored choice, else the caller's, else sr-Cyrl). */
  storedLanguage: 'sr-Cyrl' | 'sr-Latn' | 'en' | null;
  /**
   * The open cart kept in the core (`cart.save`): each change goes with a revision that only grows; the
   * checkout sends the revision it sells. Nothing is saved before the saved cart was read back at login, so
   * an empty cart at start never overwrites one a crash left.
   */
  cart: { rev: number; restored: boolean };
  /** A new cart line key (stable for React and tests). */
  nextKey(): number;
}

/** The kit of a new store. */
export function createKit(api: PosApi, storage: UiStorage | undefined): StoreKit {
  let key = 1;
  const storedLanguage = (() => {
    try {
      const v = storage?.getItem(LANGUAGE_KEY);
      return v === 'sr-Cyrl' || v === 'sr-Latn' || v === 'en' ? v : null;
    } catch {
      return null;
    }
  })();
  return { api, storage, storedLanguage, cart: { rev: 0, restored: false }, nextKey: () => key++ };
}

/** The notice for an AppError. */
export function errorNotice(error: AppError): Notice {
  switch (error.code) {
    case 'invalid_input':
      // The core's message names the field in words in the user's language; its path is never shown.
      return { kind: 'error', key: 'error.invalid', params: { message: error.message } };
    case 'unavailable':
      return { kind: 'error', key: 'error.unavailable', params: { message: error.message } };
    case 'forbidden':
      return { kind: 'error', key: 'error.forbidden', params: { message: error.message } };
    case 'not_found':
    case 'conflict':
    case 'storage':
    case 'internal':
      return { kind: 'error', key: 'error.generic', params: { message: error.message } };
  }
}

/** Unwraps a result; on error shows it as the notice and returns null. */
export function unwrapInto(set: (partial: { notice: Notice }) => void): <T>(r: Result<T>) => T | null {
  return (r) => {
    if (r.ok) return r.value;
    set({ notice: errorNotice(r.error) });
    return null;
  };
}
