/**
 * @module containers/media/core/venv
 * Where the project-local Python environment lives (made by scripts/setup.mjs and the
 * Dockerfile at the repository or image root) and where install_models.py puts the verified
 * weights: `<venv>/models/<name>`. One definition for every engine that uses them.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mediaConfig } from './config.js';

/** Repository (or image) root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The default virtual environment. */
export const DEFAULT_PYTHON_VENV = join(REPO_ROOT, '.venv');

/**
 * A model directory as install_models.py names it.
 * @example venvModelDir('faster-whisper-base') // '<repo>/.venv/models/faster-whisper-base'
 */
export const venvModelDir = (name: string, venv: string = DEFAULT_PYTHON_VENV): string =>
  join(venv, 'models', name);

/**
 * The ffmpeg binary that PyPI's `imageio-ffmpeg` (requirements.txt) puts into the environment: a
 * static ffmpeg 9 (BtbN's GPL build, with libx264), or null when the package is not installed.
 * Renders need it: Debian's ffmpeg 5.1 runs the filter graph and the raw-frame input on its main
 * thread, and its swscale is slower (docs/benchmarks.md "Which ffmpeg").
 */
export function venvFfmpeg(venv: string = DEFAULT_PYTHON_VENV): string | null {
  const lib = join(venv, 'lib');
  if (!existsSync(lib)) return null;
  for (const python of readdirSync(lib)
    .filter((d) => d.startsWith('python'))
    .sort()) {
    const binaries = join(lib, python, 'site-packages', 'imageio_ffmpeg', 'binaries');
    if (!existsSync(binaries)) continue;
    const bin = readdirSync(binaries).find((f) => f.startsWith('ffmpeg-'));
    if (bin) return join(binaries, bin);
  }
  return null;
}

/** The venv's Python interpreter. */
export const venvPython = (venv: string = DEFAULT_PYTHON_VENV): string => join(venv, 'bin', 'python');

/** A script of containers/media/python (the children with a narrow stdin/stdout contract). */
export const pythonScript = (name: string): string => join(REPO_ROOT, 'containers', 'media', 'python', name);

/** install_models.py's directory for the MediaPipe models the `mediapipe` wheel ships, once verified. */
export const MEDIAPIPE_MODELS = 'mediapipe-solutions';

/**
 * MediaPipe's native face mesh and selfie segmenter (`python/vision_worker.py`), or null when
 * the environment lacks them or their weights failed verification (the engines then use the
 * TensorFlow.js models, and say so). `enabled` false (`NATIVE_VISION=0`) forces that fallback.
 */
export function nativeVision(
  venv: string = DEFAULT_PYTHON_VENV,
  enabled: boolean = mediaConfig().core.nativeVision,
): { python: string; script: string } | null {
  if (!enabled) return null;
  const python = venvPython(venv);
  if (!existsSync(python) || !existsSync(venvModelDir(MEDIAPIPE_MODELS, venv))) return null;
  return { python, script: pythonScript('vision_worker.py') };
}
