/**
 * @module shared/keyed-counter
 * How many of something each key holds at once (held long-polls of a key, requests of a job in
 * flight): `enter` counts one and gives its release, which is idempotent; a key at zero is forgotten.
 */
export class KeyedCounter {
  private readonly counts = new Map<string, number>();

  /** How many `key` holds now. */
  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  /** Counts one for `key` until the returned function is called (calling it again does nothing). */
  enter(key: string): () => void {
    this.counts.set(key, this.count(key) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.count(key) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    };
  }

  /** The keys holding any, forgotten. */
  drain(): string[] {
    const keys = [...this.counts.keys()];
    this.counts.clear();
    return keys;
  }
}
