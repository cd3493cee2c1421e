/**
 * Routing by `api_mode`: an operation's `api_mode` decides the public endpoint,
 * the container route, and whether the response is unary or streaming.
 */
import { containerRoutes, type ResponseKind } from '@agentgen/runtime';

export const apiModes = ['', 'async', 'stream', 'async_stream'] as const;
export type ApiMode = (typeof apiModes)[number];

export interface ApiModeRouting {
  readonly mode: ApiMode;
  /** Public endpoint suffix on `/v1/{resource_name}`. */
  readonly publicMethod: ':query' | ':streamQuery';
  /** Fixed route inside the container. */
  readonly containerRoute: '/api/reasoning_engine' | '/api/stream_reasoning_engine';
  readonly response: ResponseKind;
}

export const unaryContainerRoute = containerRoutes.unary;
export const streamContainerRoute = containerRoutes.stream;

export const apiModeRouting: Readonly<Record<ApiMode, ApiModeRouting>> = {
  '': { mode: '', publicMethod: ':query', containerRoute: unaryContainerRoute, response: 'unary' },
  async: { mode: 'async', publicMethod: ':query', containerRoute: unaryContainerRoute, response: 'unary' },
  stream: { mode: 'stream', publicMethod: ':streamQuery', containerRoute: streamContainerRoute, response: 'stream' },
  async_stream: {
    mode: 'async_stream',
    publicMethod: ':streamQuery',
    containerRoute: streamContainerRoute,
    response: 'stream',
  },
};

/** What the runtime calls when a public request names no method (reference platform). */
export const defaultMethodByEndpoint = { ':query': 'query', ':streamQuery': 'stream_query' } as const;

export function isApiMode(value: unknown): value is ApiMode {
  return typeof value === 'string' && (apiModes as readonly string[]).includes(value);
}
