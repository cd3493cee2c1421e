/** The runtime repeats a few contract values (it cannot import spec/); they must not drift. */
import { describe, expect, it } from 'vitest';
import { errorConditions, streamContainerRoute, unaryContainerRoute } from '../../spec/index.js';
import { containerErrors, containerRoutes } from '../../templates/runtime/server-runtime.js';

describe('runtime constants equal the spec', () => {
  it('routes', () => {
    expect(containerRoutes).toEqual({ unary: unaryContainerRoute, stream: streamContainerRoute });
  });

  it('every error row the runtime uses is the spec row of the same name', () => {
    for (const [name, row] of Object.entries(containerErrors)) {
      expect(errorConditions, name).toHaveProperty(name);
      expect(row, name).toEqual(errorConditions[name as keyof typeof errorConditions]);
    }
    // The container-side rows of the spec are all present (public-API-only rows excepted).
    const publicOnly = new Set(['unauthenticated', 'containerFailed', 'containerUnreachable']);
    const containerSide = Object.keys(errorConditions).filter((name) => !publicOnly.has(name));
    expect(Object.keys(containerErrors).sort()).toEqual(containerSide.sort());
  });
});
