/**
 * Node-side setup of the worker suite: the real media container service and a fixture server.
 */
import type { TestProject } from 'vitest/node';
import { generateFixtures } from '../support/fixtures.js';
import { SHARED_MEDIA, startFixtureServer, startMediaService } from '../support/services.js';

export const MEDIA_PORT = 18788;
export const FIXTURE_PORT = 18790;

export default async function setup(_project: TestProject) {
  const generated = generateFixtures();
  const media = await startMediaService(MEDIA_PORT);
  const fixtures = await startFixtureServer(FIXTURE_PORT, { shared: SHARED_MEDIA, generated });
  return async () => {
    media.kill('SIGTERM');
    await new Promise<void>((r) => fixtures.close(() => r()));
  };
}
