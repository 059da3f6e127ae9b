/**
 * @module containers/media/venv
 * Where the project-local Python environment lives (made by scripts/setup.mjs and the
 * Dockerfile at the repository or image root) and where install_models.py puts the verified
 * weights: `<venv>/models/<name>`. One definition for every engine that uses them.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
