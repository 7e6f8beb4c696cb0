/**
 * The security-relevant settings of the Electron shell, in a module that does not import `electron`
 * (so Node tests can import it: in Electron 45 `require('electron')` outside Electron tries to download
 * the binary). main.ts takes every flag, the CSP, the allowlist, the app:// path resolution and the
 * window-state handling from here; test/electron/ checks them.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The renderer's origin: `app://kasa/…`. Nothing else is ever loaded into the window. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'kasa';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/**
 * The main window's webPreferences, minus `preload` (a path known only at run time). Every switch is
 * explicit, including the defaults, so a future Electron default change cannot weaken them silently.
 * (Do not copy window settings from Signal or GitHub Desktop, which turn some of these off.)
 */
export const WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  safeDialogs: true,
  spellcheck: false,
  disableBlinkFeatures: 'Auxclick',
  devTools: false,
} as const;

/**
 * DevTools and the default application menu (whose accelerators open them, reload, zoom) exist only in an
 * unpackaged development run that asks for them with `KASA_DEVTOOLS=1`: in a packaged build a
 * cashier cannot open a console and call `window.pos.*` directly, whatever the environment says.
 */
export function devToolsAllowed(isPackaged: boolean, env: NodeJS.ProcessEnv): boolean {
  return !isPackaged && env['KASA_DEVTOOLS'] === '1';
}

/**
 * The Content-Security-Policy of every app:// response (header on the protocol response, and again via
 * session.webRequest for any response the window gets). No inline script or style, no eval, no remote
 * origin: the renderer talks to the core through `window.pos` only.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** https hosts the app may open in the system browser: the gateway's verification and PDF links. */
export const EXTERNAL_ALLOWLIST: readonly RegExp[] = [/^suf\.purs\.gov\.rs$/, /^[a-z0-9-]+\.suf\.purs\.gov\.rs$/];

/** True only for an https URL (no credentials, default port) whose host is on the allowlist. */
export function isAllowedExternalUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username || u.password || (u.port && u.port !== '443')) return false;
  return EXTERNAL_ALLOWLIST.some((re) => re.test(u.hostname));
}

/**
 * Maps an app:// request URL to a file inside `rootDir`, or null: another host, a path that leaves the
 * root after decoding and normalisation (`..`, `%2e%2e`, encoded separators), a NUL byte, or a bad URL.
 */
export function resolveAppFile(requestUrl: string, rootDir: string): string | null {
  let u: URL;
  try {
    u = new URL(requestUrl);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const root = path.resolve(rootDir);
  const rel = path.posix.normalize('/' + pathname).replace(/^\/+/, '');
  const file = path.resolve(root, rel === '' ? 'index.html' : rel);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  return file;
}

/** Response headers of every app:// response. */
export function appResponseHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
  };
}

/** The Content-Type of a file of the built renderer (app:// protocol and the browser host alike). */
export { mimeOf } from '../shared/node/http/mime.ts';

// ---------------------------------------------------------------------------------------------------
// The main window

/** Where and how large the window was: saved in `<dataDir>/window-state.json`. */
export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const MIN_WIDTH = 1024;
export const MIN_HEIGHT = 640;
export const DEFAULT_STATE: WindowState = { width: 1280, height: 800, maximized: false };
export const WINDOW_STATE_FILE = 'window-state.json';

/**
 * Reads the saved window state. Anything missing, unreadable or implausible gives the default; a saved
 * position is kept only if the window's title bar would be on one of `displays` (a monitor unplugged
 * since the last run must not leave the window off screen).
 */
export function loadWindowState(dataDir: string, displays: readonly Rect[]): WindowState {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(dataDir, WINDOW_STATE_FILE), 'utf8'));
  } catch {
    return { ...DEFAULT_STATE };
  }
  if (!raw || typeof raw !== 'object') return { ...DEFAULT_STATE };
  const r = raw as Record<string, unknown>;
  const int = (v: unknown): number | undefined =>
    typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : undefined;
  const width = int(r['width']);
  const height = int(r['height']);
  const state: WindowState = {
    width: width && width >= MIN_WIDTH && width <= 16384 ? width : DEFAULT_STATE.width,
    height: height && height >= MIN_HEIGHT && height <= 16384 ? height : DEFAULT_STATE.height,
    maximized: r['maximized'] === true,
  };
  const x = int(r['x']);
  const y = int(r['y']);
  if (x !== undefined && y !== undefined) {
    // The top strip of the window (where the title bar is) must intersect a display by 100x20 px or more.
    const visible = displays.some(
      (d) =>
        Math.min(x + state.width, d.x + d.width) - Math.max(x, d.x) >= 100 &&
        Math.min(y + 20, d.y + d.height) - Math.max(y, d.y) >= 20,
    );
    if (visible) {
      state.x = x;
      state.y = y;
    }
  }
  return state;
}

/** Saves the window state (normal bounds + maximized flag); failures are ignored (cosmetic). */
export function saveWindowState(dataDir: string, bounds: Rect, maximized: boolean): void {
  const state: WindowState = { x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height, maximized };
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, WINDOW_STATE_FILE);
    fs.writeFileSync(file + '.tmp', JSON.stringify(state));
    fs.renameSync(file + '.tmp', file);
  } catch {
    // a read-only data dir only loses the window position
  }
}

/** The options main.ts passes to `new BrowserWindow` (the part of Electron's type used here). */
export interface MainWindowOptions {
  x?: number;
  y?: number;
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  title: string;
  show: boolean;
  backgroundColor: string;
  icon?: string;
  webPreferences: Omit<typeof WEB_PREFERENCES, 'devTools'> & { preload: string; devTools: boolean };
}

/**
 * Creates the main window with `BrowserWindow` (Electron's class, injected so tests can capture the
 * options). The webPreferences are written out literally here, not spread from WEB_PREFERENCES, so that
 * static scanners (electronegativity) see every flag in the built main.js; a test checks that both agree.
 */
export function createMainWindow<W>(
  BrowserWindow: new (options: MainWindowOptions) => W,
  preload: string,
  state: WindowState,
  icon?: string,
  devTools = false,
): W {
  // Reviewed for electronegativity (PRELOAD_JS_CHECK, "review the use of preload scripts", raised for any
  // preload): the sandboxed preload exposes one function per contract command through contextBridge and
  // nothing generic (electron/preload.ts and its test). webPreferences come first so the marker below
  // stays next to `preload` in the bundle.
  /* eng-disable PRELOAD_JS_CHECK @preserve */
  return new BrowserWindow({
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
      devTools,
    },
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    title: 'Kasa',
    show: false,
    backgroundColor: '#ffffff',
    ...(icon ? { icon } : {}),
  });
}

/**
 * Where the customer display's window goes (docs/payments.md, "The customer display"): full screen on the first
 * screen that is not the till's. `KASA_CUSTOMER_DISPLAY=off` never opens it; `=window` opens it as a window on the
 * till's screen when there is no other (a till with one wide screen, the desktop test); by default it opens only
 * when a second screen is there.
 */
export function customerDisplayPlacement(
  displays: readonly Rect[],
  tills: Rect,
  setting: string | undefined,
): { bounds: Rect; fullscreen: boolean } | null {
  if (setting === 'off') return null;
  const same = (a: Rect, b: Rect): boolean =>
    a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
  const other = displays.find((d) => !same(d, tills));
  if (other) return { bounds: other, fullscreen: true };
  if (setting === 'window')
    return { bounds: { x: tills.x, y: tills.y, width: MIN_WIDTH, height: 768 }, fullscreen: false };
  return null;
}

/** The customer display's page in Electron: the renderer, told by its fragment to draw the display in `language`. */
export function customerDisplayUrl(language: string): string {
  return `${APP_START_URL}#display=${language}`;
}
