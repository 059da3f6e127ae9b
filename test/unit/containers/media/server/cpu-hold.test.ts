import { describe, expect, it } from 'vitest';
import { mustYield, nextHold } from '../../../../../containers/media/server/cpu-hold.js';

describe('mustYield', () => {
  it('should yield only to strictly higher priority (a lower nice value) of another key', () => {
    expect(mustYield(19, [0])).toBe(true);
    expect(mustYield(10, [19, 5])).toBe(true);
    expect(mustYield(10, [10, 19])).toBe(false);
    expect(mustYield(0, [0])).toBe(false);
    expect(mustYield(19, [])).toBe(false);
  });
});

describe('nextHold', () => {
  const HOLD = 2000;
  const RUN = 250;
  it('should hold work that must yield and has run its minimum', () => {
    expect(nextHold({ held: false, since: 0 }, true, 1000, HOLD, RUN)).toEqual({ held: true, since: 1000 });
    expect(nextHold({ held: false, since: 900 }, true, 1000, HOLD, RUN)).toEqual({ held: false, since: 900 });
  });
  it('should release held work after the hold time, or when it need not yield', () => {
    expect(nextHold({ held: true, since: 0 }, true, 1999, HOLD, RUN)).toEqual({ held: true, since: 0 });
    expect(nextHold({ held: true, since: 0 }, true, 2000, HOLD, RUN)).toEqual({ held: false, since: 2000 });
    expect(nextHold({ held: true, since: 0 }, false, 10, HOLD, RUN)).toEqual({ held: false, since: 10 });
  });
  it('should never hold work that need not yield, nor when holding is off', () => {
    expect(nextHold({ held: false, since: 0 }, false, 5000, HOLD, RUN)).toEqual({ held: false, since: 0 });
    expect(nextHold({ held: false, since: 0 }, true, 5000, 0, RUN)).toEqual({ held: false, since: 0 });
  });
  it('should run held work at least run/(hold + run) of the time under constant pressure', () => {
    let state = { held: false, since: 0 };
    let heldMs = 0;
    for (let t = 0; t < 60_000; t += 50) {
      state = nextHold(state, true, t, HOLD, RUN);
      if (state.held) heldMs += 50;
    }
    expect(heldMs / 60_000).toBeLessThanOrEqual(HOLD / (HOLD + RUN) + 0.01);
  });
});
