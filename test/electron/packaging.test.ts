/**
 * Packaging inputs, checked without packaging (electron-builder needs the Electron download): the
 * electron-builder.yml validates against electron-builder's own schema and says what the issue asks,
 * and the icons in resources/icons are real images of the right sizes (PNG, ICO, ICNS), as generated.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/build-if-stale.ts';
import { render } from '../../resources/build/make-icons.ts';

const require = createRequire(import.meta.url);
const ICONS = path.join(ROOT, 'resources', 'icons');

interface BuilderConfig {
  appId?: string;
  productName?: string;
  files?: string[];
  asarUnpack?: string[];
  win?: { target: { target: string }[]; icon: string };
  linux?: { target: { target: string }[]; icon: string };
  mac?: { target: { target: string }[]; icon: string };
  electronFuses?: Record<string, boolean>;
}

async function loadConfig(file: string): Promise<BuilderConfig> {
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
    getConfig(dir: string, file: string, extra: null): Promise<BuilderConfig>;
    validateConfiguration(c: BuilderConfig, log: unknown): Promise<void>;
  };
  const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  const config = await getConfig(ROOT, file, null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

describe('electron-builder.yml', () => {
  it('is valid for electron-builder and builds NSIS, AppImage + deb and dmg for rs.kasa.pos', async () => {
    await loadConfig('electron-builder.yml');
    const yaml = require('js-yaml') as { load(text: string): unknown };
    const c = yaml.load(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
    expect(c.appId).toBe('rs.kasa.pos');
    expect(c.productName).toBe('Kasa');
    expect(c.win?.target.map((t) => t.target)).toEqual(['nsis']);
    expect(c.linux?.target.map((t) => t.target)).toEqual(['AppImage', 'deb']);
    expect(c.mac?.target.map((t) => t.target)).toEqual(['dmg']);
    expect(c.asarUnpack).toContain('**/*.node');
    expect(c.files?.filter((f) => !f.startsWith('!'))).toEqual(['package.json', 'out/**', 'resources/**']);
    expect(c.electronFuses).toMatchObject({
      runAsNode: false,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    for (const icon of [c.win?.icon, c.mac?.icon, c.linux?.icon])
      expect(fs.existsSync(path.join(ROOT, icon ?? 'missing'))).toBe(true);
  });

  it('the validation is real: a misspelt key is rejected', async () => {
    const bad = path.join(ROOT, 'test-results', 'electron-builder.bad.yml');
    fs.mkdirSync(path.dirname(bad), { recursive: true });
    fs.writeFileSync(bad, 'appId: rs.kasa.pos\nasarUnpak: ["**/*.node"]\n');
    try {
      await expect(loadConfig(path.relative(ROOT, bad))).rejects.toThrow(
        /asarUnpak|unknown property|Invalid configuration/i,
      );
    } finally {
      fs.rmSync(bad, { force: true });
    }
  });

  it('npm run dist builds first, then packages with this file; better-sqlite3 ships as a dependency', () => {
    const pkg = require('../../package.json') as {
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
      main: string;
    };
    expect(pkg.scripts['dist']).toBe('electron-vite build && electron-builder --config electron-builder.yml');
    expect(pkg.dependencies['better-sqlite3']).toBeDefined();
    expect(pkg.main).toBe('out/main/main.js');
  });
});

describe('icons', () => {
  it.each([16, 24, 32, 48, 64, 128, 256, 512, 1024])(
    '%ix%i.png is a real RGBA PNG of that size, as the generator draws it',
    (size) => {
      const bytes = fs.readFileSync(path.join(ICONS, `${size}x${size}.png`));
      const png = PNG.sync.read(bytes);
      expect([png.width, png.height]).toEqual([size, size]);
      if (size <= 256) expect(Buffer.compare(png.data, render(size).data)).toBe(0);
      // Not blank: transparent corners, opaque centre, teal and white both present.
      const at = (x: number, y: number): number[] =>
        Array.from(png.data.subarray((y * size + x) * 4, (y * size + x) * 4 + 4));
      expect(at(0, 0)[3]).toBe(0);
      expect(at(size >> 1, size >> 1)[3]).toBe(255);
    },
  );

  it('icon.ico holds 16…256 px images (BMP up to 64, PNG for 128 and 256)', () => {
    const ico = fs.readFileSync(path.join(ICONS, 'icon.ico'));
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const n = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < n; i++) {
      const e = 6 + 16 * i;
      const size = ico.readUInt8(e) || 256;
      const len = ico.readUInt32LE(e + 8);
      const off = ico.readUInt32LE(e + 12);
      const data = ico.subarray(off, off + len);
      expect(data.length).toBe(len);
      if (data.subarray(1, 4).toString('ascii') === 'PNG') expect(PNG.sync.read(data).width).toBe(size);
      else expect([data.readUInt32LE(0), data.readInt32LE(4), data.readInt32LE(8)]).toEqual([40, size, size * 2]);
      sizes.push(size);
    }
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
  });

  it('icon.icns holds ic07–ic10 PNGs (128, 256, 512, 1024)', () => {
    const icns = fs.readFileSync(path.join(ICONS, 'icon.icns'));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const found: Record<string, number> = {};
    for (let off = 8; off < icns.length;) {
      const type = icns.subarray(off, off + 4).toString('ascii');
      const len = icns.readUInt32BE(off + 4);
      found[type] = PNG.sync.read(icns.subarray(off + 8, off + len)).width;
      off += len;
    }
    expect(found).toEqual({ ic07: 128, ic08: 256, ic09: 512, ic10: 1024 });
  });
});
