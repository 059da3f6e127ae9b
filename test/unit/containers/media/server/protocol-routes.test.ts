import { describe, expect, it } from 'vitest';
import { createMediaApp } from '../../../../../containers/media/server/server.js';
import { MEDIA_ROUTES } from '../../../../../src/contract/media-protocol.js';

/** The handlers the container serves (its middleware, mounted on `*` or a route, left out). */
function servedRoutes(): { method: string; path: string }[] {
  const app = createMediaApp();
  const middleware = new Set(['ALL']);
  return app.routes.filter((r) => !middleware.has(r.method)).map(({ method, path }) => ({ method, path }));
}

describe('the Worker ↔ container protocol', () => {
  it('should serve only routes the protocol defines, and every route it defines', () => {
    const routes = servedRoutes();
    const defined = new Set<string>(Object.values(MEDIA_ROUTES));
    const undefinedRoutes = routes.filter((r) => !defined.has(r.path));
    expect(undefinedRoutes).toEqual([]);
    expect(new Set(routes.map((r) => r.path))).toEqual(defined);
  });
});
