// Node ESM hooks: `.onnx` imports as their bytes (default export: an ArrayBuffer) and `.wasm`
// imports as compiled modules (default export: a WebAssembly.Module), as wrangler bundles them for
// workerd, so a bench can run the edge's Silero VAD (`wasm/vad`) in Node.
// Use: node --import ./bench/support/wasm-modules.mjs … (tsx: `npx tsx --import …`).
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { readFile } from 'node:fs/promises';
export async function load(url, context, next) {
  if (!/\\.(onnx|wasm)$/.test(url)) return next(url, context);
  const b64 = (await readFile(new URL(url))).toString('base64');
  const bytes = \`Uint8Array.from(atob('\${b64}'), (c) => c.charCodeAt(0))\`;
  const value = url.endsWith('.wasm') ? \`await WebAssembly.compile(\${bytes})\` : \`\${bytes}.buffer\`;
  return { format: 'module', source: \`export default \${value};\`, shortCircuit: true };
}`),
);
