/**
 * @module containers/media/core/thread-entry
 * How the media service starts one of its worker threads (vision, face mesh):
 * the entry file beside the module that owns the thread, loaded the way the service itself was
 * loaded; and how a model thread answers its requests, one at a time and in order.
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

/** A model thread's answer to request `id`: its result's fields, or why it failed. */
export type InOrderReply<Result extends object> =
  ({ type: 'result'; id: number } & Result) | { type: 'error'; id: number; message: string };

/**
 * Runs each request's work after the previous one's and posts its answer: the model threads
 * (tfjs-wasm here is single-threaded) answer strictly in order, which keeps their callers'
 * bookkeeping simple. `settled()` resolves once every queued answer has gone out.
 * @example const answers = answerInOrder<{ face: FaceMesh | null }>((r) => port.postMessage(r));
 * port.on('message', (m) => answers.answer(m.id, async () => ({ face: await detect(m) })));
 */
export function answerInOrder<Result extends object>(
  post: (reply: InOrderReply<Result>) => void,
): {
  answer(id: number, work: () => Promise<Result>): void;
  settled(): Promise<void>;
} {
  let chain: Promise<void> = Promise.resolve();
  return {
    answer(id, work) {
      chain = chain.then(async () => {
        try {
          post({ type: 'result', id, ...(await work()) });
        } catch (err) {
          post({ type: 'error', id, message: (err as Error).message });
        }
      });
    },
    settled: () => chain,
  };
}
