// The container tools the image scripts drive: docker where an engine answers, else Debian's
// buildah (build) and podman (run), both on the storage driver of config.mjs.
import { execFileSync, spawnSync } from 'node:child_process';
import { STORAGE_DRIVER } from './config.mjs';

export const say = (msg) => console.log(`[image] ${msg}`);

const answers = (cmd, args) => spawnSync(cmd, args, { stdio: 'ignore', timeout: 20_000 }).status === 0;

/** `docker` when a Docker engine answers (IMAGE_ENGINE=docker|buildah forces one), else `buildah`. */
export function buildEngine(env = process.env) {
  if (env.IMAGE_ENGINE) return env.IMAGE_ENGINE;
  return answers('docker', ['info']) ? 'docker' : 'buildah';
}

/** The command line of a buildah or podman call on the configured storage. */
export const storageArgs = () => ['--storage-driver', STORAGE_DRIVER];

/** Runs a tool and returns its trimmed standard output (standard error passes through). */
export function capture(cmd, args, options = {}) {
  return execFileSync(cmd, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    ...options,
  }).trim();
}

/** Runs a tool with its output on the terminal; throws on a non-zero exit. */
export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.slice(0, 3).join(' ')} … exited ${r.status ?? r.signal}`);
}

/** Whether `image` is in local storage. */
export function hasImage(engine, image) {
  if (engine === 'docker') return answers('docker', ['image', 'inspect', image]);
  return answers(engine, [...storageArgs(), 'inspect', '--type', 'image', image]);
}

/** The image's size in bytes as its local storage counts it (uncompressed layers). */
export function imageSize(engine, image) {
  if (engine === 'docker') return Number(capture('docker', ['image', 'inspect', '-f', '{{.Size}}', image]));
  const [entry] = JSON.parse(capture('buildah', [...storageArgs(), 'images', '--json', image]));
  const [, value, unit] = /^([\d.]+)\s*([kMG]?B)$/.exec(entry.size) ?? [];
  if (!value) throw new Error(`buildah reported an unreadable size: ${entry.size}`);
  return Number(value) * { B: 1, kB: 1e3, MB: 1e6, GB: 1e9 }[unit];
}
