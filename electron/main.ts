/**
 * The Electron main process: one window, the renderer from the `app://kasa/` protocol, every security
 * switch on, and the core reached only through the contract's IPC handlers.
 */
import { app, BrowserWindow, ipcMain, protocol, session, shell, net } from 'electron';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createCore, type Core } from './core.ts';
import { defaultDataDir } from './db/open.ts';
import { EVENT_CHANNEL, registerCommands } from './ipc.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RENDERER_DIR = path.join(HERE, '..', 'renderer');
const PRELOAD = path.join(HERE, '..', 'preload', 'preload.cjs');

/** https hosts the app may open in the system browser (verification and PDF links of the gateway). */
export const EXTERNAL_ALLOWLIST = [/^suf\.purs\.gov\.rs$/, /\.suf\.purs\.gov\.rs$/];

/** The window's webPreferences: checked by a test. */
export const WEB_PREFERENCES = {
  preload: PRELOAD,
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
} as const;

protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let core: Core | null = null;

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 640,
    title: 'Kasa',
    show: false,
    webPreferences: { ...WEB_PREFERENCES },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.setWindowOpenHandler(({ url }) => {
    openExternalIfAllowed(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  win.webContents.on('will-attach-webview', (e) => e.preventDefault());
  void win.loadURL('app://kasa/index.html');
  return win;
}

function openExternalIfAllowed(url: string): void {
  try {
    const u = new URL(url);
    if (u.protocol === 'https:' && EXTERNAL_ALLOWLIST.some((re) => re.test(u.hostname))) void shell.openExternal(u.toString());
  } catch {
    // not a URL: ignore
  }
}

async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  protocol.handle('app', (request) => {
    const { host, pathname } = new URL(request.url);
    const file = path.resolve(RENDERER_DIR, '.' + path.posix.normalize('/' + decodeURIComponent(pathname)));
    if (host !== 'kasa' || (file !== RENDERER_DIR && !file.startsWith(RENDERER_DIR + path.sep))) {
      return new Response('Not found', { status: 404 });
    }
    return net.fetch(pathToFileURL(file).toString());
  });
  const dataDir = process.env.KASA_DATA_DIR ? defaultDataDir() : app.getPath('userData');
  core = await createCore({ dataDir, transport: 'electron' });
  registerCommands(ipcMain, core);
  const win = createWindow();
  core.subscribe((m) => {
    if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, m);
  });
  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => {
    void core?.close();
  });
}

void start();
