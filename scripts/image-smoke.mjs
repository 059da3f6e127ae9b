// `npm run image:smoke`: scripts/image/smoke.ts (through tsx, as the CLI runs: no build step). On a
// fresh clone the npm packages (tsx, wrangler) are installed first, as `npm start` would.
import { ensureNpmPackages } from './setup.mjs';

ensureNpmPackages();
const { register } = await import('tsx/esm/api');
register();
await import('./image/smoke.ts');
