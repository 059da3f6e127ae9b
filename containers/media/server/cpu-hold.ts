/**
 * @module containers/media/server/cpu-hold
 * Stronger than nice: while a key's work of higher priority (a lower nice value, work-scope
 * `currentNice`) runs here, the child processes of lower-priority work are held (SIGSTOP to their
 * process group), not merely niced. On 2 cores a normal job of one key beside abusive jobs of
 * another still slowed down with those jobs at nice 19 (docs/benchmarks.md), because the normal job
 * leaves a core half idle and nice 19 work fills it, and every such task it wakes costs the
 * normal job's threads a core at their barriers.
 *
 * Held work is never starved: it is held at most `MEDIA_HOLD_MS` at a time, then runs at least
 * `MEDIA_HOLD_RUN_MS` (a duty cycle), and only while the higher-priority work runs. Its idle
 * limit (`IDLE_TIMEOUT_MS`, minutes) is far above one hold, and its budget (10 × the media's
 * length) leaves room for the slowdown. SIGKILL (DELETE, deadlines) reaches a held process as it
 * is; a service that exits lets its held children go first.
 */
import { mediaConfig } from '../core/config.js';
import { activeScopes, onScopesChanged, currentNice, type WorkScope } from '../core/work-scope.js';

/** Longest time a child is held at once (`MEDIA_HOLD_MS`, default 2000; 0 turns holding off). */
export const HOLD_MS = mediaConfig().server.holdMs;
/** Shortest time held work then runs before it may be held again (`MEDIA_HOLD_RUN_MS`, default 250). */
export const RUN_MS = mediaConfig().server.holdRunMs;
/** How long a key's priority outlasts its last request here (`MEDIA_HOLD_LINGER_MS`, default 1000). */
export const LINGER_MS = mediaConfig().server.holdLingerMs;
/** How often holds are decided while work of several keys is here. */
const TICK_MS = 50;

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

/**
 * tenant → the highest priority (lowest nice) of its running work, and until when it counts: a
 * job's requests come one after another (audio, speech, vision), and the gaps between them are
 * part of its time too, so its priority lingers `LINGER_MS` after its last request ended.
 */
const recent = new Map<string | null, { nice: number; until: number }>();

/** Decides every scope's hold once; returns whether to keep deciding (several keys seen, or holds to release). */
function tick(now = Date.now()): boolean {
  const scopes = activeScopes().filter((s) => s.admitted);
  const nices = new Map(scopes.map((s) => [s, currentNice(s)]));
  for (const [tenant, entry] of recent) if (entry.until < now) recent.delete(tenant);
  const running = new Map<string | null, number>();
  for (const [s, nice] of nices) running.set(s.tenant, Math.min(nice, running.get(s.tenant) ?? nice));
  for (const [tenant, nice] of running) recent.set(tenant, { nice, until: now + LINGER_MS });
  const alive = new Set<number>();
  for (const scope of scopes) {
    const others = [...recent].filter(([tenant]) => tenant !== scope.tenant).map(([, e]) => e.nice);
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
  return recent.size > 1 || stopped.size > 0;
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
