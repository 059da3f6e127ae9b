/**
 * @module client/progress-bar
 * A one-line progress bar on stderr. On a terminal it redraws in place; otherwise (logs, CI)
 * it prints a line at each 10 % step so output stays readable.
 */

export interface ProgressBarOptions {
  /** Default `process.stderr`. */
  stream?: { write(s: string): unknown; isTTY?: boolean; columns?: number };
  /** Bar width in characters; default 30. */
  width?: number;
}

/**
 * @example
 * const bar = progressBar('upload');
 * bar.update(50, '5.0 MB of 10 MB');
 * bar.done('uploaded');
 */
export function progressBar(label: string, { stream = process.stderr, width = 30 }: ProgressBarOptions = {}) {
  let lastStep = -1;
  let lastLine = '';
  return {
    update(percent: number, note = '') {
      const p = Math.max(0, Math.min(100, percent));
      if (stream.isTTY) {
        const filled = Math.round((p / 100) * width);
        const line = `${label.padEnd(9)} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${p.toFixed(0).padStart(3)}% ${note}`;
        if (line !== lastLine) stream.write(`\r\x1b[2K${line.slice(0, (stream.columns ?? 120) - 1)}`);
        lastLine = line;
      } else {
        const step = Math.floor(p / 10);
        if (step !== lastStep) stream.write(`${label} ${p.toFixed(0)}% ${note}\n`);
        lastStep = step;
      }
    },
    done(message: string) {
      stream.write(stream.isTTY ? `\r\x1b[2K${label.padEnd(9)} ${message}\n` : `${label} ${message}\n`);
    },
  };
}

/** `1.5 MB`, `820 kB`, `12 B`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(0)} kB`;
  return `${bytes} B`;
}
