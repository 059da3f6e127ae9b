// `npm test`: installs what is missing, then runs every suite (unit, container, worker, e2e).
import { spawnSync } from 'node:child_process';
import { projectEnv, ROOT, setup, TEST_SYSTEM_PACKAGES } from './setup.mjs';

setup({ extraSystemPackages: TEST_SYSTEM_PACKAGES });
const args = process.argv.slice(2);
const result = spawnSync('vitest', ['run', ...args], { cwd: ROOT, env: projectEnv(), stdio: 'inherit' });
process.exit(result.status ?? 1);
