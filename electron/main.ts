/**
 * The Electron main process: one window, the renderer from the `app://kasa/` protocol, every security
 * switch on, and the core reached only through the contract's IPC handlers.
 *
 * The security-relevant values (webPreferences, CSP, external-link allowlist, app:// path resolution)
 * live in window-config.ts, which does not import `electron`, so Node tests check exactly what runs here.
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  type WebContents,
} from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCore, type Core } from './core.ts';
import { defaultDataDir } from '../shared/node/data-dir.ts';
import { EVENT_CHANNEL, registerCommands } from './ipc.ts';
import { createLogger, type Logger } from './log/logger.ts';
import { createSafeStorageSecretStore, LPFR_PIN_SECRET } from './settings/secrets.ts';
import { SEF_KEY_SECRET } from './sef/link.ts';
import { SMTP_PASSWORD_SECRET } from './exports/mail.ts';
import { LANGUAGES, type Language } from '../shared/domain.ts';
import {
  APP_SCHEME,
  APP_START_URL,
  CONTENT_SECURITY_POLICY,
  appResponseHeaders,
  createMainWindow,
  customerDisplayPlacement,
  customerDisplayUrl,
  devToolsAllowed,
  isAllowedExternalUrl,
  loadWindowState,
  mimeOf,
  resolveAppFile,
  saveWindowState,
} from './window-config.ts';

export { EXTERNAL_ALLOWLIST, WEB_PREFERENCES } from './window-config.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RENDERER_DIR = path.join(HERE, '..', 'renderer');
const PRELOAD = path.join(HERE, '..', 'preload', 'preload.cjs');
const ICON = path.join(HERE, '..', '..', 'resources', 'icons', '512x512.png');

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let core: Core | null = null;
let mainWindow: BrowserWindow | null = null;

/** Opens `url` in the system browser only if it is https and on the allowlist; logs what it refuses. */
function openExternalIfAllowed(url: string, logger: Logger): void {
  if (!isAllowedExternalUrl(url)) {
    logger.warn(`refused to open external link ${url.slice(0, 200)}`);
    return;
  }
  // Reviewed for electronegativity: https and the host allowlist are checked just above. The marker is a
  // legal comment (@preserve) so that it survives bundling onto the same line of out/main/main.js.
  const href = new URL(url).toString();
  void shell.openExternal(/* eng-disable OPEN_EXTERNAL_JS_CHECK @preserve */ href);
}

/** Navigation, new windows and webviews are denied for every webContents the app ever creates. */
/** DevTools and the application menu only in a development run that asks (window-config.ts). */
const DEV_TOOLS = devToolsAllowed(app.isPackaged, process.env);

function lockDownContents(contents: WebContents, logger: Logger): void {
  if (!DEV_TOOLS)
    contents.on('devtools-opened', () => {
      contents.closeDevTools();
      logger.warn('DevTools opened in a build without them: closed');
    });
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfAllowed(url, logger);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    logger.warn(`navigation to ${url.slice(0, 200)} refused`);
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

function lockDownSession(logger: Logger): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, permission, callback) => {
    logger.warn(`permission request ${permission} denied`);
    callback(false);
  });
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  // The CSP again for every response (the app:// handler sets it too).
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  // The renderer reaches nothing on the network: the core (main process) is its only peer.
  ses.webRequest.onBeforeRequest(
    { urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'] },
    (details, callback) => {
      logger.warn(`renderer request to ${details.url.slice(0, 200)} blocked`);
      callback({ cancel: true });
    },
  );
}

function registerAppProtocol(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(request.url, RENDERER_DIR);
    if (!file || request.method !== 'GET')
      return new Response('Not found', { status: 404, headers: appResponseHeaders('text/plain') });
    try {
      const body = await fs.promises.readFile(file);
      return new Response(body, { status: 200, headers: appResponseHeaders(mimeOf(file)) });
    } catch {
      return new Response('Not found', { status: 404, headers: appResponseHeaders('text/plain') });
    }
  });
}

function openMainWindow(dataDir: string): BrowserWindow {
  const displays = screen.getAllDisplays().map((d) => d.workArea);
  const state = loadWindowState(dataDir, displays);
  const win = createMainWindow(BrowserWindow, PRELOAD, state, fs.existsSync(ICON) ? ICON : undefined, DEV_TOOLS);
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  let timer: NodeJS.Timeout | null = null;
  const save = (): void => {
    if (!win.isDestroyed() && !win.isMinimized()) saveWindowState(dataDir, win.getNormalBounds(), win.isMaximized());
  };
  const saveSoon = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, 1000);
  };
  win.on('resize', saveSoon);
  win.on('move', saveSoon);
  win.on('close', () => {
    if (timer) clearTimeout(timer);
    save();
  });
  void win.loadURL(APP_START_URL);
  return win;
}

/**
 * The customer display on a second screen (docs/payments.md, "The customer display"): the same locked-down window
 * and preload as the till's, drawing the display (`#display=<language>`) from the core's `display.frame` events.
 * Its language is KASA_DISPLAY_LANG, or the till's.
 */
function openCustomerDisplay(tillLanguage: Language): BrowserWindow | null {
  const place = customerDisplayPlacement(
    screen.getAllDisplays().map((d) => d.bounds),
    screen.getPrimaryDisplay().bounds,
    process.env.KASA_CUSTOMER_DISPLAY,
  );
  if (!place) return null;
  const language = LANGUAGES.find((l) => l === process.env.KASA_DISPLAY_LANG) ?? tillLanguage;
  const state = { ...place.bounds, maximized: false };
  const win = createMainWindow(BrowserWindow, PRELOAD, state, undefined, DEV_TOOLS);
  win.once('ready-to-show', () => {
    win.showInactive();
    if (place.fullscreen) win.setFullScreen(true);
  });
  void win.loadURL(customerDisplayUrl(language));
  return win;
}

async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  await app.whenReady();
  // No application menu (its default accelerators open DevTools and reload) unless developing.
  if (!DEV_TOOLS) Menu.setApplicationMenu(null);

  const dataDir = process.env.KASA_DATA_DIR ? defaultDataDir() : app.getPath('userData');
  const logger = createLogger({ dir: path.join(dataDir, 'logs') });
  app.on('web-contents-created', (_e, contents) => lockDownContents(contents, logger));
  lockDownSession(logger);
  registerAppProtocol();

  // The API key: safeStorage-encrypted in the data dir (KASA_API_KEY still wins, for development).
  const secrets = createSafeStorageSecretStore(safeStorage, dataDir, { env: process.env });
  const key = secrets.get();
  const keyStatus = secrets.status();
  if (keyStatus.warning) logger.warn(`secrets: ${keyStatus.warning}`);
  if (key) logger.redact(key);

  // The core applies a pending restore, runs quick_check and takes the day's backup.
  const lpfrSecrets = createSafeStorageSecretStore(safeStorage, dataDir, { env: process.env, spec: LPFR_PIN_SECRET });
  // The SEF API key (docs/sef.md) is kept as the gateway's is, under its own names.
  const sefSecrets = createSafeStorageSecretStore(safeStorage, dataDir, { env: process.env, spec: SEF_KEY_SECRET });
  const smtpSecrets = createSafeStorageSecretStore(safeStorage, dataDir, {
    env: process.env,
    spec: SMTP_PASSWORD_SECRET,
  });
  core = await createCore({
    dataDir,
    env: process.env,
    transport: 'electron',
    logger,
    secrets,
    lpfrSecrets,
    sefSecrets,
    smtpSecrets,
  });
  registerCommands(ipcMain, core);

  const win = openMainWindow(dataDir);
  mainWindow = win;
  const customer = openCustomerDisplay(core.language());
  core.subscribe((m) => {
    if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, m);
    if (customer && !customer.isDestroyed()) customer.webContents.send(EVENT_CHANNEL, m);
  });
  win.webContents.on('render-process-gone', (_e, details) => {
    logger.error(`renderer gone: ${details.reason} (exit ${details.exitCode}); reloading`);
    if (!win.isDestroyed() && details.reason !== 'clean-exit') void win.loadURL(APP_START_URL);
  });
  app.on('child-process-gone', (_e, details) => logger.warn(`child process ${details.type} gone: ${details.reason}`));
  if (keyStatus.backend === 'basic_text' && keyStatus.hasKey) {
    win.once('ready-to-show', () => {
      void dialog.showMessageBox(win, {
        type: 'warning',
        title: 'Kasa',
        message:
          'Кључ за API није заштићен системским привеском кључева / The API key is not protected by a system keyring.',
        detail: keyStatus.warning ?? '',
      });
    });
  }

  app.on('window-all-closed', () => app.quit());
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing || !core) return;
    closing = true;
    event.preventDefault();
    void core.close().finally(() => {
      core = null;
      app.exit(0);
    });
  });
}

void start().catch((err: unknown) => {
  dialog.showErrorBox('Kasa', `Kasa could not start: ${err instanceof Error ? err.message : String(err)}`);
  app.exit(1);
});
