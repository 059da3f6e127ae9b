// Development configuration: secrets in .dev.vars (made once), the development API key(s).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Where each running stack's secrets file lives: beside .dev.vars' other copies, never in argv. */
const SECRETS_DIR = join(ROOT, '.wrangler', 'dev-secrets');

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/**
 * Writes the secrets wrangler dev is given (`--env-file`) to a file only this user can read
 * (.wrangler/dev-secrets/{pid}.env, 0600 in a 0700 folder), and returns its path: never in argv,
 * where `ps` shows them to every local user (issue #34). With `--env-file`, wrangler reads that
 * file instead of .dev.vars, so it carries .dev.vars' own entries too. wrangler reads it again when
 * it reloads, so it stays while the stack runs; files of stacks no longer running are removed.
 * @example writeSecretsFile({ SIGNING_SECRET: 's', ADMIN_TOKEN: 'a', DEV_API_KEY: 'k' })
 */
export function writeSecretsFile(secrets) {
  mkdirSync(SECRETS_DIR, { recursive: true, mode: 0o700 });
  chmodSync(SECRETS_DIR, 0o700);
  for (const name of readdirSync(SECRETS_DIR)) {
    const pid = Number(/^(\d+)\.env$/.exec(name)?.[1]);
    if (pid && !alive(pid)) rmSync(join(SECRETS_DIR, name), { force: true });
  }
  const file = join(SECRETS_DIR, `${process.pid}.env`);
  const all = { ...readVars(), ...secrets };
  writeFileSync(
    file,
    Object.entries(all)
      .map(([k, v]) => `${k}=${JSON.stringify(String(v))}`)
      .join('\n') + '\n',
    { mode: 0o600 },
  );
  chmodSync(file, 0o600);
  return file;
}

/**
 * Pure: the wait before the supervisor restarts a service that died `failures` times in a row
 * (1, 2, 4, 8 then 10 s).
 * @example restartDelayMs(1) // → 1000
 */
export const restartDelayMs = (failures) => Math.min(10_000, 1000 * 2 ** Math.max(0, failures - 1));
