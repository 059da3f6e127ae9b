/**
 * Node-side setup of the worker suite: the real media container service and a fixture server.
 */
import type { TestProject } from 'vitest/node';
import { generateFixtures } from '../support/fixtures.js';
import { SHARED_MEDIA, startFixtureServer, startMediaService } from '../support/services.js';

export default async function setup(_project: TestProject) {
  const MEDIA_PORT = Number(process.env.TEST_MEDIA_PORT);
  const FIXTURE_PORT = Number(process.env.TEST_FIXTURE_PORT);
  const generated = generateFixtures();
  const media = await startMediaService(MEDIA_PORT);
  const fixtures = await startFixtureServer(
    FIXTURE_PORT,
    { shared: SHARED_MEDIA, generated },
    { mediaUrl: `http://127.0.0.1:${MEDIA_PORT}` },
  );
  return async () => {
    media.kill('SIGTERM');
    await new Promise<void>((r) => fixtures.close(() => r()));
  };
}
