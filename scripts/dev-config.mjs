// Development configuration: secrets in .dev.vars (made once), the development API key(s).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './setup.mjs';

const DEV_VARS = join(ROOT, '.dev.vars');

function readVars() {
  if (!existsSync(DEV_VARS)) return {};
  return Object.fromEntries(
    readFileSync(DEV_VARS, 'utf8')
      .split('\n')
      .map((l) => /^([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/.exec(l))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );
}

/** Returns the dev secrets and keys, creating what is missing. */
export function devConfig() {
  const vars = readVars();
  const token = (prefix) => `${prefix}${randomBytes(18).toString('base64url')}`;
  const next = {
    SIGNING_SECRET: vars.SIGNING_SECRET || token(''),
    ADMIN_TOKEN: vars.ADMIN_TOKEN || token('adm_'),
    DEV_API_KEY: vars.DEV_API_KEY || token('dev_'),
  };
  if (Object.entries(next).some(([k, v]) => vars[k] !== v)) {
    writeFileSync(
      DEV_VARS,
      Object.entries({ ...vars, ...next })
        .map(([k, v]) => `${k}="${v}"`)
        .join('\n') + '\n',
      { mode: 0o600 },
    );
  }
  return { ...next, DEV_API_KEY: process.env.DEV_API_KEY || next.DEV_API_KEY };
}
