/**
 * Where the customer display's frames come from (docs/payments.md, "The customer display"):
 * - a tablet on the LAN: the browser host's display routes, with the display-only token a manager made (taken from
 *   `#token=…` once, kept in this browser's localStorage, removed from the address bar): a one-shot ticket (the
 *   token in a header, never in a URL), then the display's event stream; the token's language comes with the ticket;
 * - Electron's second window: the core's `display.frame` event through the preload.
 */
import type { DisplayFrame, PosApi } from '../../../shared/contract/index.ts';
import { LANGUAGES, type Language } from '../../../shared/domain.ts';
import { takeToken } from '../transport.ts';

export interface DisplayHandlers {
  frame(frame: DisplayFrame): void;
  language(language: Language): void;
  /** The token is unknown or revoked: a manager has to make a new address. */
  refused(): void;
}

/** Connects and calls the handlers until the returned function stops it. */
export type DisplayConnect = (handlers: DisplayHandlers) => () => void;

const TOKEN_KEY = 'kasa.displayToken';
const RETRY_MS = 2000;

/** The display's token from `#token=…` (then kept in localStorage, the address bar cleaned), or the kept one. */
export function displayToken(
  loc: Pick<Location, 'hash' | 'pathname' | 'search'>,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  history: Pick<History, 'replaceState'>,
): string | null {
  return takeToken(loc, storage, history, TOKEN_KEY);
}

const isLanguage = (v: unknown): v is Language => LANGUAGES.includes(v as Language);

/** The browser host's display stream, opened with a display-only token. */
export function hostDisplay(baseUrl: string, token: string | null): DisplayConnect {
  return (handlers) => {
    let stopped = false;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = (): void => {
      if (!stopped) timer = setTimeout(() => void open(), RETRY_MS);
    };
    const open = async (): Promise<void> => {
      if (!token) return handlers.refused();
      let ticket: string;
      try {
        const res = await fetch(`${baseUrl}display-api/ticket`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: '{}',
        });
        if (res.status === 401) return handlers.refused();
        const body = (await res.json()) as { value?: { ticket?: unknown; language?: unknown } };
        if (typeof body.value?.ticket !== 'string') return again();
        ticket = body.value.ticket;
        if (isLanguage(body.value.language)) handlers.language(body.value.language);
      } catch {
        return again();
      }
      if (stopped) return;
      const es = new EventSource(`${baseUrl}display-api/events?ticket=${encodeURIComponent(ticket)}`);
      source = es;
      es.addEventListener('frame', (ev) => {
        try {
          handlers.frame(JSON.parse((ev as MessageEvent<string>).data) as DisplayFrame);
        } catch {
          // a frame that does not parse is left out; the next one replaces it
        }
      });
      // The ticket is one-shot: a closed stream (the till restarted, the token revoked) asks for a new one.
      es.addEventListener('error', () => {
        if (es.readyState !== 2) return;
        es.close();
        source = null;
        again();
      });
    };
    void open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  };
}

/** Electron's second window: the core's frames through the preload; the language the window was opened with. */
export function electronDisplay(api: PosApi, language: Language): DisplayConnect {
  return (handlers) => {
    handlers.language(language);
    void api['app.info']({}).then((r) => {
      if (r.ok) handlers.frame({ phase: 'idle', shopName: r.value.shopName ?? '', lines: [], totalPara: 0 });
    });
    return api.on('display.frame', (frame) => handlers.frame(frame));
  };
}
