/** Static files from one folder, and nothing outside it: the built renderer (browser host) and the hub UI. */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { mimeOf } from './mime.ts';

export interface StaticOptions {
  /** The folder served. */
  root: string;
  /** The file for `/`, relative to the root. */
  index: string;
  /**
   * A path with no file and no extension gets the index (a single-page app's own routes). Without it such a
   * path is not found.
   */
  spaFallback?: boolean;
  /** Which files (relative, `/`-separated, normalized) may be served at all. Default: every file. */
  allow?: (rel: string) => boolean;
  /** Headers of a served file besides Content-Type and Content-Length. */
  headers?: (file: string) => Record<string, string>;
}

/** What became of a request: `sent`, or why not (each server answers these in its own words). */
export type StaticOutcome = 'sent' | 'bad_path' | 'not_found' | 'no_index';

export interface StaticFiles {
  serve(pathname: string, res: http.ServerResponse): StaticOutcome;
}

/**
 * A static-file server over `root`. A path is decoded, refused with a NUL byte, normalized and resolved
 * inside the root; a symlink that leads out of the root (as the filesystem resolves it) is not found.
 */
export function staticFiles(options: StaticOptions): StaticFiles {
  const root = path.resolve(options.root);
  const realRootOf = (): string => {
    try {
      return fs.realpathSync(root);
    } catch {
      return root;
    }
  };
  const realRoot = realRootOf();
  const inside = (file: string, dir: string): boolean => file.startsWith(dir + path.sep);
  const isFile = (file: string): boolean => fs.existsSync(file) && !fs.statSync(file).isDirectory();

  return {
    serve(pathname, res) {
      let rel: string;
      try {
        rel = decodeURIComponent(pathname);
      } catch {
        return 'bad_path';
      }
      if (rel.includes('\0')) return 'bad_path';
      let file = path.resolve(root, '.' + path.posix.normalize('/' + rel));
      if (file !== root && !inside(file, root)) return 'not_found';
      const index = path.join(root, options.index);
      if (file === root) file = index;
      else if (!isFile(file)) {
        if (!options.spaFallback || path.extname(file) !== '') return 'not_found';
        file = index;
      }
      const relative = path.relative(root, file).split(path.sep).join('/');
      if (options.allow && !options.allow(relative)) return 'not_found';
      if (!isFile(file)) return file === index ? 'no_index' : 'not_found';
      const real = fs.realpathSync(file);
      if (real !== realRoot && !inside(real, realRoot)) return 'not_found';
      const data = fs.readFileSync(real);
      res.writeHead(200, {
        'Content-Type': mimeOf(file),
        'Content-Length': data.length,
        ...options.headers?.(file),
      });
      res.end(data);
      return 'sent';
    },
  };
}
