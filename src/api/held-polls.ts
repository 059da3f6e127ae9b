/**
 * @module api/held-polls
 * Long-polls held at once per API key, in this isolate (issue #34: 500 held long-polls of one key
 * slowed every other key's answers). Beyond `STATUS_MAX_HELD_POLLS` (default 20) a status request
 * with `wait` is 429 `rate_limited` (reason `held_polls`); one without `wait` is never counted.
 * Each isolate counts its own (as the unauthenticated limit does): locally one isolate serves all.
 */
import { numberVar } from '../shared/env.js';
import { KeyedCounter } from '../shared/keyed-counter.js';

export const DEFAULT_MAX_HELD_POLLS = 20;

export const maxHeldPolls = (env: { STATUS_MAX_HELD_POLLS?: string }) => {
  const n = Math.floor(numberVar(env.STATUS_MAX_HELD_POLLS, DEFAULT_MAX_HELD_POLLS));
  return n > 0 ? n : DEFAULT_MAX_HELD_POLLS;
};

/** Holds per key: `enter` gives a release function, or null when the key holds `limit` already. */
export class HeldPolls {
  private readonly held = new KeyedCounter();

  enter(key: string, limit: number): (() => void) | null {
    return this.held.count(key) >= limit ? null : this.held.enter(key);
  }
}
