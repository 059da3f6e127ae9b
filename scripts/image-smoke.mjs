// `npm run image:smoke`: scripts/image/smoke.ts (through tsx, as the CLI runs: no build step).
import { register } from 'tsx/esm/api';

register();
await import('./image/smoke.ts');
