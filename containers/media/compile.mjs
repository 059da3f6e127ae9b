// Compiles the media service for its image (containers/media/Dockerfile, stage `compile`): every
// TypeScript module of the service and the repository modules it imports (src/contract,
// src/analytics, …), one JavaScript file per module at the same relative path, so the paths the
// service derives from import.meta.url (venv.ts REPO_ROOT, the worker-thread entries of
// thread-entry.ts, segmenter-process) stay what they are in the repository. Also writes the
// runtime package.json: the root one with only the dependencies the compiled code loads.
//
// Usage (from the repository root, esbuild installed): node containers/media/compile.mjs <outdir>
import { readdirSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

const SERVICE_DIR = relative(process.cwd(), import.meta.dirname);
const out = process.argv[2];
if (!out) throw new Error('usage: node containers/media/compile.mjs <outdir>');

const isModule = (f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !/\.test\.ts$/.test(f);
const entries = readdirSync(SERVICE_DIR, { recursive: true })
  .map((f) => join(SERVICE_DIR, f))
  .filter(isModule);

// What the service's modules import, transitively (a bundling pass that writes nothing).
const graph = await build({
  entryPoints: entries,
  bundle: true,
  write: false,
  outdir: '/nonexistent',
  platform: 'node',
  format: 'esm',
  packages: 'external',
  metafile: true,
  logLevel: 'error',
});
const modules = Object.keys(graph.metafile.inputs).filter(isModule);

await build({
  entryPoints: modules,
  outdir: out,
  outbase: '.',
  platform: 'node',
  format: 'esm',
  target: 'node22',
  logLevel: 'warning',
});

// The npm packages the compiled code loads: its static and dynamic imports, and the packages it
// finds with require.resolve (model and wasm directories) that no import names.
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const used = new Set();
for (const input of Object.values(graph.metafile.inputs)) {
  for (const imp of input.imports)
    if (imp.external && !imp.path.startsWith('node:')) used.add(packageOf(imp.path));
}
for (const file of modules) {
  for (const m of readFileSync(file, 'utf8').matchAll(/require\.resolve\(\s*'([^'./][^']*)'/g))
    used.add(packageOf(m[1]));
}
const root = JSON.parse(readFileSync('package.json', 'utf8'));
const dependencies = Object.fromEntries(Object.entries(root.dependencies).filter(([name]) => used.has(name)));
const transitive = [...used].filter((name) => !(name in root.dependencies));
const pkg = { name: root.name, version: root.version, private: true, type: root.type, dependencies };
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
console.log(
  `compiled ${modules.length} modules; runtime dependencies: ${Object.keys(dependencies).join(' ')}` +
    (transitive.length ? ` (through them: ${transitive.join(' ')})` : ''),
);
