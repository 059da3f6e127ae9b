// `npm test`: installs what is missing, type-checks, checks the import rules, then runs every suite (unit, container, worker, e2e).
import { spawn, spawnSync } from 'node:child_process';
import { projectEnv, ROOT, setup, TEST_SYSTEM_PACKAGES } from './setup.mjs';

setup({ extraSystemPackages: TEST_SYSTEM_PACKAGES });
const args = process.argv.slice(2);

/** Runs `npm run <check>` with its output held back; resolves to the exit status and that output. */
function runCheck(check) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', check], { cwd: ROOT, env: projectEnv() });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => resolve({ check, status: status ?? 1, output: Buffer.concat(output) }));
  });
}

// The whole run starts with the checks that need no suite: the type check, the generated
// binding types being current (`npm run types`), the page's bundled script being current (`npm run build:web`),
// the import rules (`.dependency-cruiser.cjs`: a wrong-way import or a cycle) and the code
// style (`npm run format:check`, prettier; `npm run format` fixes it). They run at once (the type
// check, the longest, takes one core, the others share the second, so together they take about as
// long as the type check alone); their outputs are printed in this order once all have ended. Any failure ends the run before a suite starts.
if (args.length === 0) {
  const checks = ['typecheck', 'types:check', 'build:web:check', 'lint:imports', 'format:check'];
  const results = await Promise.all(checks.map(runCheck));
  for (const { check, status, output } of results) {
    if (output.length > 0) process.stdout.write(output);
    if (status !== 0) console.error(`npm test: \`npm run ${check}\` failed (exit ${status})`);
  }
  const failed = results.find((r) => r.status !== 0);
  if (failed) process.exit(failed.status);
}
const result = spawnSync('vitest', ['run', ...args], { cwd: ROOT, env: projectEnv(), stdio: 'inherit' });
process.exit(result.status ?? 1);
