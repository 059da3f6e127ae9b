/**
 * @module media/container
 * The Cloudflare Container that runs `containers/media` in production.
 */
import { Container } from '@cloudflare/containers';

export class MediaContainer extends Container {
  defaultPort = 8788;
  // Models load once per instance: keep it warm between jobs.
  sleepAfter = '15m';
  envVars = { PORT: '8788', NODE_ENV: 'production' };

  override onError(error: unknown) {
    console.error(JSON.stringify({ level: 'error', where: 'media-container', error: String(error) }));
    throw error;
  }
}
