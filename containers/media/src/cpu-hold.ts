/**
 * @module containers/media/cpu-hold
 * Stronger than nice: while a key's work of higher priority (a lower nice value, work-scope
 * `currentNice`) runs here, the child processes of lower-priority work are held (SIGSTOP to their
 * process group), not merely niced. Measured on 2 cores: a normal 2 s job of one key beside five
 * abusive jobs of another still took +16–22 % with those jobs at nice 19, because the normal job
 * leaves a core half idle and nice 19 work fills it, and every such task it wakes costs the
 * normal job's threads a core at their barriers.
 *
 * Held work is never starved: it is held at most `MEDIA_HOLD_MS` at a time, then runs at least
 * `MEDIA_HOLD_RUN_MS` (a duty cycle), and only while the higher-priority work runs. Its idle
 * limit (`IDLE_TIMEOUT_MS`, minutes) is far above one hold, and its budget (10 × the media's
 * length) leaves room for the slowdown. SIGKILL (DELETE, deadlines) reaches a held process as it
 * is; a service that exits lets its held children go first.
 */
import { activeScopes, onScopesChanged, currentNice, type WorkScope } from './work-scope.js';

/** Longest time a child is held at once (`MEDIA_HOLD_MS`, default 2000; 0 turns holding off). */
export const HOLD_MS = numberSetting(process.env.MEDIA_HOLD_MS, 2000);
/** Shortest time held work then runs before it may be held again (`MEDIA_HOLD_RUN_MS`, default 250). */
export const RUN_MS = numberSetting(process.env.MEDIA_HOLD_RUN_MS, 250);
/** How often holds are decided while work of several keys is here. */
const TICK_MS = 50;

function numberSetting(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
}

/**
 * Pure: whether work at `nice` must yield to the other keys' running work, whose nice values are
 * `otherNices`: only to strictly higher priority, so two keys' equal work shares the cores.
 * @example mustYield(19, [0]) // → true
 * @example mustYield(10, [10, 19]) // → false
 */
export const mustYield = (nice: number, otherNices: readonly number[]): boolean =>
  otherNices.some((other) => other < nice);

/** A scope's place in the duty cycle: held since, or running since (epoch ms). */
export interface HoldState {
  held: boolean;
  since: number;
}

/**
 * Pure: the next duty-cycle state of a scope that does (`wantHold`) or does not have to yield:
 * it is held when it must yield and has run at least `runMs`; it runs again when it need not
 * yield or has been held `holdMs`.
 * @example nextHold({ held: false, since: 0 }, true, 1000) // → { held: true, since: 1000 }
 * @example nextHold({ held: true, since: 0 }, true, 2000) // → { held: false, since: 2000 }
 */
export function nextHold(
  state: HoldState,
  wantHold: boolean,
  now: number,
  holdMs = HOLD_MS,
  runMs = RUN_MS,
): HoldState {
  if (state.held) return !wantHold || now - state.since >= holdMs ? { held: false, since: now } : state;
  return wantHold && holdMs > 0 && now - state.since >= runMs ? { held: true, since: now } : state;
}

const states = new WeakMap<WorkScope, HoldState>();
/** Process groups this module stopped and has not continued. */
const stopped = new Set<number>();

const signalGroup = (pid: number, signal: 'SIGSTOP' | 'SIGCONT') => {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // exited meanwhile
  }
};

const releaseGroup = (pid: number) => {
  if (stopped.delete(pid)) signalGroup(pid, 'SIGCONT');
};

/** Decides every scope's hold once; returns whether several keys have work here (keep ticking). */
function tick(now = Date.now()): boolean {
  const scopes = activeScopes().filter((s) => s.admitted);
  const nices = new Map(scopes.map((s) => [s, currentNice(s)]));
  const alive = new Set<number>();
  let keys = new Set(scopes.map((s) => s.tenant)).size;
  for (const scope of scopes) {
    const others = scopes.filter((s) => s.tenant !== scope.tenant).map((s) => nices.get(s)!);
    const state = nextHold(
      states.get(scope) ?? { held: false, since: 0 },
      mustYield(nices.get(scope)!, others),
      now,
    );
    states.set(scope, state);
    for (const pid of scope.children.keys()) {
      alive.add(pid);
      if (state.held && !stopped.has(pid)) {
        if (signalGroup(pid, 'SIGSTOP')) stopped.add(pid);
      } else if (!state.held) releaseGroup(pid);
    }
  }
  // Children that ended, or whose scope ended, while held.
  for (const pid of stopped) if (!alive.has(pid)) releaseGroup(pid);
  if (stopped.size) keys = Math.max(keys, 2);
  return keys > 1;
}

let timer: NodeJS.Timeout | undefined;
const schedule = () => {
  if (timer || HOLD_MS === 0) return;
  const loop = () => {
    timer = tick() ? setTimeout(loop, TICK_MS) : undefined;
    timer?.unref();
  };
  loop();
};
onScopesChanged(schedule);
// A child is tracked from its start (spawnMedia): a held scope's new child is held at the next tick.
process.on('exit', () => {
  for (const pid of stopped) signalGroup(pid, 'SIGCONT');
});
