// Where the media image's inputs live and what it is called: the one place the image scripts
// (scripts/image.mjs, scripts/image-smoke.mjs) name a path under containers/media or an image tag.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../setup.mjs';

export { ROOT };
/** The Dockerfile wrangler deploys (wrangler.toml `[[containers]] image`); its build context is ROOT. */
export const DOCKERFILE = join(ROOT, 'containers', 'media', 'Dockerfile');
export const CONTEXT = ROOT;
/** The tag `npm run image` gives the media image (local storage only; nothing is pushed). */
export const IMAGE = 'localhost/video-api-media:latest';
/** The Dockerfile's base (its `ARG NODE_IMAGE` default) as local storage names it. */
export const BASE_IMAGE = 'docker.io/library/node:22-bookworm-slim';
/** The service's port inside the image (the Dockerfile's `PORT`, media/container.ts `defaultPort`). */
export const IMAGE_PORT = 8788;
/** Debian release of the base, as node:22-bookworm-slim has it. */
export const DEBIAN_SUITE = 'bookworm';
export const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
/**
 * npm 10 is what Node 22's own release bundles (and so the official node:22 images): the
 * local base gets the same major, with its exact version recorded in the image's labels.
 */
export const BASE_NPM_RANGE = '10';

/** The Node version the project pins (package-lock.json's `node` package, the npm start runtime). */
export function pinnedNodeVersion() {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const version = lock.packages?.['node_modules/node']?.version;
  if (!version) throw new Error('package-lock.json pins no `node` package');
  return version;
}

/**
 * Storage for buildah and podman: vfs works without kernel overlay support (nested containers,
 * unprivileged sandboxes); every layer is a full copy, so `npm run image` removes what it no
 * longer needs. IMAGE_STORAGE_DRIVER=overlay on a machine where overlay works.
 */
export const STORAGE_DRIVER = process.env.IMAGE_STORAGE_DRIVER || 'vfs';
