#!/usr/bin/env node
// `video-api` command: runs the TypeScript CLI through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('./cli.ts');
process.exitCode = await runCli(process.argv.slice(2));
