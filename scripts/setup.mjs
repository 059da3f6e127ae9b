// Installs what the project needs on a fresh machine: Debian packages (ffmpeg, the speech
// engines) and npm packages. Node built-ins only: it runs before node_modules exists.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Debian packages and a command that proves each is there. */
const SYSTEM_PACKAGES = [
  { pkg: 'ffmpeg', check: 'ffmpeg' },
  { pkg: 'pocketsphinx', check: 'pocketsphinx_continuous' },
  { pkg: 'pocketsphinx-en-us', path: '/usr/share/pocketsphinx/model/en-us/en-us' },
  { pkg: 'espeak-ng', check: 'espeak-ng' },
];
/** Only the tests need a browser (the web page is driven in headless Chromium). */
export const TEST_SYSTEM_PACKAGES = [{ pkg: 'chromium', check: 'chromium' }];

const say = (msg) => console.log(`[setup] ${msg}`);
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

export function ensureSystemPackages(extra = []) {
  const wanted = [...SYSTEM_PACKAGES, ...extra];
  const missing = wanted.filter((p) => (p.check ? !has(p.check) : !existsSync(p.path))).map((p) => p.pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0 && !has('sudo')) {
    throw new Error(`missing system packages: ${missing.join(' ')} — install them with apt-get`);
  }
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  say(`installing Debian packages: ${missing.join(' ')}`);
  execSync(`${sudo}apt-get update -qq`, { stdio: 'inherit' });
  execSync(`${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${missing.join(' ')}`, {
    stdio: 'inherit',
  });
}

export function ensureNpmPackages() {
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  // `npm install`, not `npm ci`: the lock cannot list the other platforms' optional builds of
  // @fugood/whisper.node (they are not in every registry), which `npm ci` insists on. With an
  // up-to-date lock, `npm install` installs exactly the locked versions.
  say('installing npm packages (npm install)');
  execSync('npm install --no-audit --no-fund', { cwd: ROOT, stdio: 'inherit' });
}

/** PATH with the project's binaries first, so the pinned Node 22 runs wrangler. */
export function projectEnv(extra = {}) {
  return { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`, ...extra };
}

export function setup(options = {}) {
  ensureSystemPackages(options.extraSystemPackages);
  ensureNpmPackages();
}

if (import.meta.url === `file://${process.argv[1]}`) setup();
