/**
 * @module media/transport
 * How the Worker reaches the media container. In production: the `MediaContainer` Durable
 * Object (a Cloudflare Container). In development (no Docker engine): the same HTTP API served
 * by a local Node process at `CONTAINER_URL`. One client, two transports.
 */
import { getContainer } from '@cloudflare/containers';
import type { MediaContainer } from './container.js';

export interface MediaTransport {
  fetch(path: string, init: RequestInit): Promise<Response>;
}

export interface MediaEnv {
  MEDIA_CONTAINER: DurableObjectNamespace<MediaContainer>;
  CONTAINER_URL?: string;
  CONTAINER_POOL_SIZE?: string;
}

/** Internal host name: the container ignores it; only the path matters. */
const CONTAINER_ORIGIN = 'http://media.internal';
const DEFAULT_POOL_SIZE = 4;

export function mediaTransport(env: MediaEnv, affinity: string): MediaTransport {
  if (env.CONTAINER_URL) {
    const base = env.CONTAINER_URL.replace(/\/+$/, '');
    return { fetch: (path, init) => fetch(`${base}${path}`, init) };
  }
  // Spread jobs over a fixed pool of warm instances; the same job always meets the same one.
  const pool = Number(env.CONTAINER_POOL_SIZE) || DEFAULT_POOL_SIZE;
  const name = `media-${hashString(affinity) % pool}`;
  const stub = getContainer(env.MEDIA_CONTAINER, name);
  return { fetch: (path, init) => stub.fetch(new Request(`${CONTAINER_ORIGIN}${path}`, init)) };
}

function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
