// `npm run test:kernels`: the tests whose outcome runs through Whisper, once per CPU code path
// CTranslate2 can take, so a test that holds on this machine's CPU only is found here rather than
// on a CI machine of another make. CTranslate2 multiplies with Intel MKL on Intel CPUs and with
// oneDNN on others, and picks its instruction set by CPU; `CT2_USE_MKL` and `CT2_FORCE_CPU_ISA`
// (documented by CTranslate2) choose them, `MKL_ENABLE_INSTRUCTIONS` caps MKL's own. Prints one
// line per path; exits 1 when any path fails. Logs: test/.tmp/kernels-<path>.log.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectEnv, ROOT, setup, TEST_SYSTEM_PACKAGES } from './setup.mjs';

/** Test files that decode speech with Whisper (directly, through the pipeline or the stack). */
const WHISPER_TESTS = [
  'test/container/whisper.test.ts',
  'test/container/asr.test.ts',
  'test/container/captions.align.test.ts',
  'test/container/delivery.repetition.test.ts',
  'test/container/tts.piper.test.ts',
  'test/worker/analysis.test.ts',
  'test/e2e/stack.test.ts',
  'test/e2e/voice.test.ts',
];

/** The code paths: what an AMD and an Intel CI machine take, and the narrower ones. */
const PATHS = {
  'onednn-default': {},
  'mkl-avx512': { CT2_USE_MKL: '1', CT2_FORCE_CPU_ISA: 'AVX512', MKL_ENABLE_INSTRUCTIONS: 'AVX512' },
  'mkl-avx2': { CT2_USE_MKL: '1', CT2_FORCE_CPU_ISA: 'AVX2', MKL_ENABLE_INSTRUCTIONS: 'AVX2' },
  'onednn-avx512': { CT2_FORCE_CPU_ISA: 'AVX512' },
  generic: { CT2_FORCE_CPU_ISA: 'GENERIC' },
};

setup({ extraSystemPackages: TEST_SYSTEM_PACKAGES });
const only = process.argv.slice(2);
const logs = join(ROOT, 'test/.tmp');
mkdirSync(logs, { recursive: true });
let failed = false;
for (const [name, env] of Object.entries(PATHS).filter(([n]) => only.length === 0 || only.includes(n))) {
  const t0 = Date.now();
  const run = spawnSync('npx', ['vitest', 'run', ...WHISPER_TESTS], {
    cwd: ROOT,
    env: projectEnv(env),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const log = join(logs, `kernels-${name}.log`);
  writeFileSync(log, `${run.stdout}\n${run.stderr}`);
  const tally =
    (run.stdout.replace(/\x1b\[[0-9;]*m/g, '').match(/^\s*Tests\s+(.*)$/m) ?? [])[1] ?? 'no tally';
  const ok = run.status === 0;
  failed ||= !ok;
  console.log(
    `${ok ? 'pass' : 'FAIL'}  ${name.padEnd(15)} ${tally}  (${Math.round((Date.now() - t0) / 1000)} s; ${log})`,
  );
}
process.exit(failed ? 1 : 0);
