// `npm run image`: builds the media image (containers/media/Dockerfile, context: the repository
// root) as wrangler deploy would, and tags it IMAGE (scripts/image/config.mjs). With a Docker engine:
// `docker build` (the base is pulled as usual). Without one: Debian's buildah, daemonless; the base
// node:22-bookworm-slim is used from local storage when there, pulled with IMAGE_BASE=pull, and
// otherwise made locally (scripts/image/base.mjs) — no container registry is needed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BASE_IMAGE, CONTEXT, DOCKERFILE, IMAGE, STORAGE_DRIVER } from './image/config.mjs';
import { makeLocalBase } from './image/base.mjs';
import { buildEngine, hasImage, imageSize, run, say, storageArgs } from './image/tools.mjs';
import { ensureSystemPackages } from './setup.mjs';

// Builds are long and CPU-bound: at the lowest priority, they leave the machine usable.
const nice = (cmd, args) => ['nice', ['-n', '19', cmd, ...args]];

/**
 * The Dockerfile's optional `build_ca` secret: the CA bundle this machine's Node trusts
 * (IMAGE_BUILD_CA, else NODE_EXTRA_CA_CERTS), for networks that intercept TLS to the registries.
 */
function buildCaArgs(env) {
  const file = env.IMAGE_BUILD_CA || env.NODE_EXTRA_CA_CERTS;
  return file && existsSync(file) ? ['--secret', `id=build_ca,src=${file}`] : [];
}

export function buildImage(env = process.env) {
  const engine = buildEngine(env);
  const started = Date.now();
  if (engine === 'docker') {
    say(`docker build → ${IMAGE}`);
    run(...nice('docker', ['build', ...buildCaArgs(env), '-f', DOCKERFILE, '-t', IMAGE, CONTEXT]));
  } else {
    ensureSystemPackages([
      { pkg: 'buildah', check: 'buildah' },
      { pkg: 'debootstrap', check: 'debootstrap' },
    ]);
    if (hasImage('buildah', BASE_IMAGE)) say(`base ${BASE_IMAGE}: in local storage`);
    else if (env.IMAGE_BASE === 'pull') run('buildah', [...storageArgs(), 'pull', BASE_IMAGE]);
    else makeLocalBase();
    say(`buildah bud (isolation chroot, storage ${STORAGE_DRIVER}) → ${IMAGE}`);
    run(
      ...nice('buildah', [
        ...storageArgs(),
        'bud',
        '--isolation',
        'chroot',
        '--format',
        'docker',
        '--pull=never',
        '--layers=false',
        ...buildCaArgs(env),
        '-f',
        DOCKERFILE,
        '-t',
        IMAGE,
        CONTEXT,
      ]),
    );
    // A rebuild leaves the previous image untagged; on vfs each one is gigabytes.
    spawnSync('buildah', [...storageArgs(), 'rmi', '--prune'], { stdio: 'ignore' });
  }
  const size = imageSize(engine, IMAGE);
  say(`built ${IMAGE}: ${(size / 1e6).toFixed(0)} MB in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return { engine, size };
}

if (import.meta.url === `file://${process.argv[1]}`) buildImage();
