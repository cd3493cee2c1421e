/**
 * The spec's `a2a:` section resolved: defaults filled in (the card's name from the spec's, the
 * mount `/a2a/{name}` as Google's agents-cli and `adk deploy agent_engine` mount it, both
 * protocol versions, streaming), and checked against the rest of the container: the mount is
 * a path of its own (never a contract route, liveness or the busy route), skill ids are unique,
 * a streaming card has a streaming operation to serve its turns, and no operation takes the
 * handler's `a2aTurn` name.
 */
import type { A2ASpec } from '../load/a2a-format.js';
import type { SpecProblem } from '../load/spec-error.js';
import type { A2AFaceModel, OperationModel } from '../model.js';

/** The handler method that answers A2A messages (runtime/src/a2a/types.ts `A2AHandlers`). */
export const a2aHandlerName = 'a2aTurn';

const mountPattern = /^(\/[A-Za-z0-9._~-]+)+$/;
/** The container's own paths: the contract routes under /api/, liveness, the default busy route. */
const taken = ['/', '/health', '/is_busy'];

export function resolveA2A(spec: A2ASpec | undefined, name: string, operations: readonly OperationModel[], problems: SpecProblem[]): A2AFaceModel | undefined {
  if (spec === undefined) return undefined;
  const mount = spec.mount ?? `/a2a/${name}`;
  if (spec.mount === undefined && !mountPattern.test(mount)) {
    problems.push({ path: ['a2a'], message: `the default mount /a2a/{name} is not a path for this spec's name: set a2a.mount, e.g. /a2a/agent` });
  } else if (mount === '/api' || mount.startsWith('/api/') || taken.includes(mount)) {
    problems.push({
      path: ['a2a', 'mount'],
      message: 'expected a path of its own: /api/… holds the contract routes, and /, /health and /is_busy are the container’s',
    });
  }
  const seen = new Set<string>();
  spec.skills.forEach((skill, i) => {
    if (seen.has(skill.id)) problems.push({ path: ['a2a', 'skills', i, 'id'], message: 'expected a unique skill id: another skill has this one' });
    seen.add(skill.id);
  });
  const streaming = spec.streaming ?? true;
  if (streaming && !operations.some((op) => op.routing.response === 'stream')) {
    problems.push({
      path: spec.streaming === undefined ? ['a2a'] : ['a2a', 'streaming'],
      message: 'a streaming A2A face needs a streaming operation to serve its turns (async_stream_query, say): declare one, or set streaming: false',
    });
  }
  if (operations.some((op) => op.name === a2aHandlerName)) {
    problems.push({
      path: ['operations', a2aHandlerName],
      message: `expected another name: with an a2a section, ${a2aHandlerName} is the handler that answers A2A messages`,
    });
  }
  const protocolVersions = [...new Set(spec.protocol_versions ?? (['1.0', '0.3'] as const))];
  return {
    mount,
    protocolVersions,
    card: {
      name: spec.name ?? name,
      description: spec.description,
      version: spec.version ?? '1.0.0',
      ...(spec.provider === undefined ? {} : { provider: { organization: spec.provider.organization, url: spec.provider.url } }),
      ...(spec.documentation_url === undefined ? {} : { documentationUrl: spec.documentation_url }),
      ...(spec.icon_url === undefined ? {} : { iconUrl: spec.icon_url }),
      streaming,
      defaultInputModes: spec.input_modes ?? ['text/plain'],
      defaultOutputModes: spec.output_modes ?? ['text/plain'],
      skills: spec.skills.map((skill) => ({
        id: skill.id,
        name: skill.name,
        description: skill.description,
        tags: skill.tags ?? [],
        ...(skill.examples === undefined ? {} : { examples: skill.examples }),
        ...(skill.input_modes === undefined ? {} : { inputModes: skill.input_modes }),
        ...(skill.output_modes === undefined ? {} : { outputModes: skill.output_modes }),
      })),
    },
  };
}
