/**
 * @module containers/media/engines/render/render-log
 * What one render records as it goes: each stage's wall time, the notes for the client and the
 * options that took effect. The stages append to it; the report reads it once, at the end.
 */
export class RenderLog {
  readonly stagesMs: Record<string, number> = {};
  readonly notes: string[] = [];
  readonly applied: string[] = [];

  /** Runs `fn` and records its wall time under `name`, failed or not. */
  async time<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.stagesMs[name] = Math.round(performance.now() - t0);
    }
  }

  note(text: string): void {
    this.notes.push(text);
  }

  apply(option: string): void {
    if (!this.applied.includes(option)) this.applied.push(option);
  }

  /** Takes back an option that turned out not to apply (never claim an edit that did not happen). */
  retract(option: string, why: string): void {
    const i = this.applied.indexOf(option);
    if (i >= 0) this.applied.splice(i, 1);
    this.notes.push(why);
  }
}
