/**
 * The main window's security settings, checked on what main.ts really passes to `new BrowserWindow`
 * (createMainWindow with a capturing class), plus the app:// path resolution, the external-link
 * allowlist, the CSP and the window-state file. Plain Node: window-config.ts does not import electron.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  WEB_PREFERENCES,
  appResponseHeaders,
  createMainWindow,
  isAllowedExternalUrl,
  loadWindowState,
  resolveAppFile,
  saveWindowState,
  type MainWindowOptions,
} from '../../electron/window-config.ts';
import { tempDirs } from '../support/temp-dirs.ts';

class CapturingWindow {
  static last: MainWindowOptions | null = null;
  constructor(options: MainWindowOptions) {
    CapturingWindow.last = options;
  }
}

const { dir: tmp, cleanup } = tempDirs('kasa-win-');
afterEach(cleanup);

describe('main window webPreferences', () => {
  it('has every security flag, exactly as WEB_PREFERENCES says, plus the preload path', () => {
    createMainWindow(CapturingWindow, '/app/out/preload/preload.cjs', { width: 1300, height: 900, maximized: false });
    const prefs = CapturingWindow.last?.webPreferences;
    expect(prefs).toEqual({ ...WEB_PREFERENCES, preload: '/app/out/preload/preload.cjs' });
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    });
    expect(prefs?.disableBlinkFeatures).toContain('Auxclick');
  });

  it('main.ts builds its window only through createMainWindow and takes no other webPreferences', () => {
    const main = fs.readFileSync(fileURLToPath(new URL('../../electron/main.ts', import.meta.url)), 'utf8');
    expect(main).toContain('createMainWindow(BrowserWindow');
    expect(main).not.toMatch(/new BrowserWindow\(/);
    expect(main).not.toMatch(/webPreferences\s*:/);
    expect(main).not.toMatch(/file:\/\//);
    expect(main).toMatch(/setPermissionRequestHandler\([\s\S]{0,200}?callback\(false\)/);
    expect(main).toContain('setPermissionCheckHandler(() => false)');
    expect(main).toMatch(/setWindowOpenHandler[\s\S]*?action: 'deny'/);
    expect(main).toMatch(/'will-navigate', \(event[^)]*\) => \{\s*event\.preventDefault\(\)/);
    expect(main).toContain("'Content-Security-Policy': [CONTENT_SECURITY_POLICY]");
  });

  it('uses the saved position and size', () => {
    createMainWindow(CapturingWindow, 'p', { x: 10, y: 20, width: 1400, height: 900, maximized: true });
    expect(CapturingWindow.last).toMatchObject({ x: 10, y: 20, width: 1400, height: 900, show: false });
  });
});

describe('app:// resolution', () => {
  const root = path.resolve('/srv/kasa/renderer');
  it('maps app://kasa/ paths into the renderer directory', () => {
    expect(resolveAppFile('app://kasa/index.html', root)).toBe(path.join(root, 'index.html'));
    expect(resolveAppFile('app://kasa/', root)).toBe(path.join(root, 'index.html'));
    expect(resolveAppFile('app://kasa/assets/index-1.js?x=1#y', root)).toBe(path.join(root, 'assets', 'index-1.js'));
  });
  it.each([
    'app://kasa/../../etc/passwd',
    'app://kasa/%2e%2e/%2e%2e/etc/passwd',
    'app://kasa/assets/..%2f..%2f..%2fetc%2fpasswd',
    'app://kasa/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc/passwd',
  ])('never leaves the renderer directory: %s', (url) => {
    const file = resolveAppFile(url, root);
    expect(file === null || file.startsWith(root + path.sep)).toBe(true);
  });
  it.each([
    'app://kasa/..%5c..%5cwindows%5cwin.ini',
    'app://kasa/index.html%00.png',
    'app://other/index.html',
    'file:///etc/passwd',
    'https://kasa/index.html',
    'app://kasa/%E0%A4%A',
  ])('refuses %s', (url) => expect(resolveAppFile(url, root)).toBeNull());
  it('every response carries the CSP and nosniff', () => {
    const h = appResponseHeaders('text/html');
    expect(h['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(h['X-Content-Type-Options']).toBe('nosniff');
  });
});

describe('Content-Security-Policy', () => {
  const directives = Object.fromEntries(
    CONTENT_SECURITY_POLICY.split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([k, ...v]) => [k, v]),
  );
  it('allows nothing inline, no eval and no remote origin', () => {
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(inline|eval)|https?:|\*/);
  });
});

describe('external links', () => {
  it.each(['https://suf.purs.gov.rs/v/?vl=abc', 'https://tap.suf.purs.gov.rs/v/?vl=abc'])('opens %s', (u) =>
    expect(isAllowedExternalUrl(u)).toBe(true),
  );
  it.each([
    'http://suf.purs.gov.rs/v/',
    'https://suf.purs.gov.rs.evil.com/',
    'https://evilsuf.purs.gov.rs/',
    'https://a.b.suf.purs.gov.rs/',
    'https://user:pw@suf.purs.gov.rs/',
    'https://suf.purs.gov.rs:8443/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://suf.purs.gov.rs/share',
    'not a url',
  ])('refuses %s', (u) => expect(isAllowedExternalUrl(u)).toBe(false));
});

describe('window state', () => {
  const display = [{ x: 0, y: 0, width: 1920, height: 1080 }];
  it('round-trips size, position and maximized', () => {
    const dir = tmp();
    saveWindowState(dir, { x: 100, y: 50, width: 1500, height: 900 }, true);
    expect(loadWindowState(dir, display)).toEqual({ x: 100, y: 50, width: 1500, height: 900, maximized: true });
  });
  it('drops a position that is on no display any more, and implausible sizes', () => {
    const dir = tmp();
    saveWindowState(dir, { x: 3000, y: 50, width: 200, height: 99999 }, false);
    expect(loadWindowState(dir, display)).toEqual({ width: 1280, height: 800, maximized: false });
  });
  it('falls back to the default on a missing or corrupt file', () => {
    const dir = tmp();
    expect(loadWindowState(dir, display)).toEqual({ width: 1280, height: 800, maximized: false });
    fs.writeFileSync(path.join(dir, 'window-state.json'), '{not json');
    expect(loadWindowState(dir, display)).toEqual({ width: 1280, height: 800, maximized: false });
  });
});
