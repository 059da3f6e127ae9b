// `npm test`: installs what is missing, type-checks, then runs every suite (unit, container, worker, e2e).
import { spawnSync } from 'node:child_process';
import { projectEnv, ROOT, setup, TEST_SYSTEM_PACKAGES } from './setup.mjs';

setup({ extraSystemPackages: TEST_SYSTEM_PACKAGES });
const args = process.argv.slice(2);
// The whole run starts with the type check (~30 s): a type error fails it before any suite runs.
if (args.length === 0) {
  const typecheck = spawnSync('npm', ['run', '--silent', 'typecheck'], { cwd: ROOT, env: projectEnv(), stdio: 'inherit' });
  if (typecheck.status !== 0) process.exit(typecheck.status ?? 1);
}
const result = spawnSync('vitest', ['run', ...args], { cwd: ROOT, env: projectEnv(), stdio: 'inherit' });
process.exit(result.status ?? 1);
