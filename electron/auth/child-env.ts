/**
 * The environment a child process (the `lp` CUPS client) gets: only what it needs to find
 * its binary, its locale and the CUPS server, never the parent's secrets (KASA_API_KEY, tokens) that a
 * child, or whatever it runs, could read or log.
 */
const PASS = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'CUPS_SERVER',
  'CUPS_USER',
  'CUPS_ENCRYPTION',
  'SYSTEMROOT',
]);

export function childEnv(parent: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(parent)) if (v !== undefined && (PASS.has(k) || k.startsWith('LC_'))) out[k] = v;
  return out;
}
