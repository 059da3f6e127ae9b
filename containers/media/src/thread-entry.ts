/**
 * @module containers/media/src/thread-entry
 * How the media service starts one of its worker threads (vision, forced alignment): the entry
 * file beside the module that owns the thread, loaded the way the service itself was loaded.
 */

/**
 * The URL and Node flags of the worker-thread entry `name` (without extension) next to
 * `ownerUrl`. Running from TypeScript source (tsx, vitest) the entry is a `.ts` file that plain
 * Node cannot load, so it gets the tsx loader; a compiled build loads the `.js` directly.
 * @example new Worker(...Object.values(threadEntry(import.meta.url, 'worker')))
 */
export function threadEntry(ownerUrl: string, name: string): { url: URL; execArgv: string[] } {
  const fromSource = ownerUrl.endsWith('.ts');
  const url = new URL(`./${name}${fromSource ? '.ts' : '.js'}`, ownerUrl);
  const execArgv = [...profilingFlags(process.execArgv), ...(fromSource ? ['--import', 'tsx'] : [])];
  return { url, execArgv };
}

/**
 * The parent's Node profiling flags (`--cpu-prof`, `--cpu-prof-dir=…`, `--heap-prof…`): a worker
 * given its own execArgv no longer inherits them, and a profile of the service should cover its
 * threads too.
 */
export function profilingFlags(execArgv: readonly string[]): string[] {
  return execArgv.filter((flag) => /^--(cpu|heap)-prof(-[a-z]+)?(=|$)/.test(flag));
}
