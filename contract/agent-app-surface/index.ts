/**
 * The standard AgentApp surfaces, by version. The operations an `AgentApp` exposes depend on the
 * version deployed (contract section 9), so a spec names the version it starts from:
 *
 * - `agent-app@1`: the thirteen operations of the contract;
 * - `agent-app@2`: the twenty of the current reference `AdkApp`: those thirteen plus seven
 *   artifact operations, placed after the memory ones as the reference registers them.
 *
 * `agent-app` alone means `agent-app@1`, for good: spec format version 1 never changes meaning.
 */
import { artifactOperations } from './artifacts.js';
import type { SurfaceOperation } from './operation.js';
import { agentAppV1 } from './v1.js';

export type { SurfaceOperation } from './operation.js';

const memoryEnd = agentAppV1.findIndex((op) => op.name === 'async_search_memory') + 1;

export const agentAppSurfaces = {
  'agent-app@1': agentAppV1,
  'agent-app@2': [...agentAppV1.slice(0, memoryEnd), ...artifactOperations, ...agentAppV1.slice(memoryEnd)],
} as const satisfies Record<string, readonly SurfaceOperation[]>;

export type SurfaceVersion = keyof typeof agentAppSurfaces;

/** What `surface:` may say, and the version each means. */
export const surfaceAliases = {
  'agent-app': 'agent-app@1',
  'agent-app@1': 'agent-app@1',
  'agent-app@2': 'agent-app@2',
} as const satisfies Record<string, SurfaceVersion>;

export type SurfaceName = keyof typeof surfaceAliases;

export const surfaceNames = Object.keys(surfaceAliases) as SurfaceName[];

/** The surface a spec without a spec file starts from (and `surface: agent-app`). */
export const surfaceName = 'agent-app';

/** The thirteen operations of `surface: agent-app`. */
export const agentAppSurface: readonly SurfaceOperation[] = agentAppSurfaces['agent-app@1'];

/** The operations of a surface as a spec names it; undefined for a name that is not one. */
export function surfaceOperations(name: string): readonly SurfaceOperation[] | undefined {
  return Object.hasOwn(surfaceAliases, name) ? agentAppSurfaces[surfaceAliases[name as SurfaceName]] : undefined;
}
