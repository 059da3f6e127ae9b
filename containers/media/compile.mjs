// Compiles the media service for its image (containers/media/Dockerfile, stage `compile`): every
// TypeScript module of the service and the repository modules it imports (src/contract,
// src/analytics, …), one JavaScript file per module at the same relative path, so the paths the
// service derives from import.meta.url (venv.ts REPO_ROOT, the worker-thread entries of
// thread-entry.ts, segmenter-process) stay what they are in the repository. Also writes the
// runtime package.json: the root one with only the dependencies the compiled code loads.
//
// Usage (from the repository root, esbuild installed): node containers/media/compile.mjs <outdir>
import { existsSync, readdirSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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

// Node's ESM loader needs file extensions; src/analytics writes its relative imports without them
// (wrangler's bundler resolves them). Each extensionless relative specifier of the output becomes
// the compiled file it names (`./languages` → `./languages.js`, a folder → `./folder/index.js`).
const RELATIVE_IMPORT = /(\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\2/g;
for (const file of modules) {
  const compiled = join(out, file.replace(/\.ts$/, '.js'));
  const dir = dirname(compiled);
  const code = readFileSync(compiled, 'utf8');
  const fixed = code.replace(RELATIVE_IMPORT, (whole, lead, quote, spec) => {
    if (/\.(m?js|json|node|wasm)$/.test(spec)) return whole;
    const target = existsSync(join(dir, `${spec}.js`))
      ? `${spec}.js`
      : existsSync(join(dir, spec, 'index.js'))
        ? `${spec}/index.js`
        : null;
    if (!target) throw new Error(`${file}: cannot resolve the import ${spec}`);
    return `${lead}${quote}${target}${quote}`;
  });
  if (fixed !== code) writeFileSync(compiled, fixed);
}

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
