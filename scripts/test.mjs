// `npm test`: installs what is missing, type-checks, checks the import rules, then runs every suite (unit, container, worker, e2e).
import { spawnSync } from 'node:child_process';
import { projectEnv, ROOT, setup, TEST_SYSTEM_PACKAGES } from './setup.mjs';

setup({ extraSystemPackages: TEST_SYSTEM_PACKAGES });
const args = process.argv.slice(2);
// The whole run starts with the checks that need no suite: the type check (~30 s), the generated
// binding types being current (`npm run types`), the page's bundled script being current (`npm run build:web`),
// the import rules (`.dependency-cruiser.cjs`, ~2 s: a wrong-way import or a cycle) and the code
// style (`npm run format:check`, prettier, ~15 s; `npm run format` fixes it). Any failure ends the
// run before a suite starts.
if (args.length === 0) {
  for (const check of ['typecheck', 'types:check', 'build:web:check', 'lint:imports', 'format:check']) {
    const run = spawnSync('npm', ['run', '--silent', check], {
      cwd: ROOT,
      env: projectEnv(),
      stdio: 'inherit',
    });
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
}
const result = spawnSync('vitest', ['run', ...args], { cwd: ROOT, env: projectEnv(), stdio: 'inherit' });
process.exit(result.status ?? 1);
