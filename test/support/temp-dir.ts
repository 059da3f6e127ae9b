/**
 * Temporary directories that tests do not leave behind (each run of the suites left ≈ 10 of them,
 * megabytes each, in the OS temp dir).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A fresh directory under the OS temp dir, removed when the calling test finishes. */
export function testTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
