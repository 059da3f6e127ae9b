import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { venvFfmpeg } from '../../../../../containers/media/core/venv.js';

describe('venvFfmpeg', () => {
  const dirs: string[] = [];
  const venv = () => {
    const dir = mkdtempSync(join(tmpdir(), 'venv-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('finds the binary imageio-ffmpeg installed', () => {
    const root = venv();
    const binaries = join(root, 'lib', 'python3.11', 'site-packages', 'imageio_ffmpeg', 'binaries');
    mkdirSync(binaries, { recursive: true });
    writeFileSync(join(binaries, '__init__.py'), '');
    writeFileSync(join(binaries, 'ffmpeg-linux-x86_64-v9.0.2'), '');
    expect(venvFfmpeg(root)).toBe(join(binaries, 'ffmpeg-linux-x86_64-v9.0.2'));
  });

  it('is null without the package or without an environment', () => {
    const root = venv();
    mkdirSync(join(root, 'lib', 'python3.11', 'site-packages'), { recursive: true });
    expect(venvFfmpeg(root)).toBeNull();
    expect(venvFfmpeg(join(root, 'missing'))).toBeNull();
  });
});
