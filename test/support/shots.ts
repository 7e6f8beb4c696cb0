/**
 * Pictures of what a person sees (a screen, an A4 page, a label), for a developer to open and look at: kept only
 * when `KASA_SHOTS` names a folder (`KASA_SHOTS=/tmp/shots npx playwright test test/e2e/staff.spec.ts`), as
 * `<KASA_SHOTS>/<name>.png`. A run without it (CI) takes none: a picture nobody opens costs the run its encoding,
 * and a test writes nothing outside its own temporary files.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The folder pictures go to, or null when none were asked for (asking makes nothing: a picture kept makes it). */
export function shotsDir(): string | null {
  return process.env['KASA_SHOTS']?.trim() || null;
}

/** Where the picture `name` (without `.png`) goes, or null when none were asked for. */
export function shotPath(name: string): string | null {
  const dir = shotsDir();
  return dir ? path.join(dir, `${name}.png`) : null;
}

/** `shotPath(name)` with its folder made, for a picture about to be written; null when none were asked for. */
function newShotFile(name: string): string | null {
  const file = shotPath(name);
  if (file) fs.mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

/** Writes a picture made elsewhere (a PDF page rendered to PNG, a label) when pictures were asked for. */
export function keepPicture(name: string, png: Buffer | Uint8Array): void {
  const file = newShotFile(name);
  if (file) fs.writeFileSync(file, png);
}

/** A picture of the page (the window, or the whole page with `fullPage`) as `name`, when pictures were asked for. */
export async function keepShot(
  page: { screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown> },
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const file = newShotFile(name);
  if (file) await page.screenshot({ path: file, ...options });
}

/**
 * The pages of the PDF file `pdf` rendered by poppler's `pdftoppm` at `dpi` (only the first `pages` when given) and
 * kept as `<name>-<page>.png`, when pictures were asked for.
 */
export function keepPdfPages(pdf: string, name: string, dpi: number, pages?: number): void {
  const dir = shotsDir();
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  const range = pages ? ['-f', '1', '-l', String(pages)] : [];
  execFileSync('pdftoppm', ['-png', '-r', String(dpi), ...range, pdf, path.join(dir, name)]);
}
