/**
 * The agent card a container serves at `{mount}/.well-known/agent-card.json`, for the public URL
 * `../server/public-base.ts` resolves (on Agent Runtime, the passthrough: never the container's
 * own address).
 *
 * One card serves both versions: A2A 1.0's `supportedInterfaces` (a 1.0 and a 0.3 JSON-RPC
 * interface at one URL), and, when 0.3 is spoken, the 0.3 card's top-level `url`,
 * `protocolVersion` and `preferredTransport`, which Gemini Enterprise's registration validates
 * (the reference does the same: agents-cli's `_add_v0_3_compat_interface`). A 1.0 client reads
 * the interfaces, a 0.3 client the top-level fields.
 */
import type { A2AFace } from './types.js';

/** The card as JSON text, for the JSON-RPC endpoint at `url`. */
export function cardJson(face: A2AFace, url: string): string {
  const { card } = face;
  const interfaces = face.protocolVersions.map((version) => ({ url, protocolBinding: 'JSONRPC', protocolVersion: version }));
  const speaks03 = face.protocolVersions.includes('0.3');
  const skills = card.skills.map((skill) => ({
    id: skill.id,
    name: skill.name,
    description: skill.description,
    tags: skill.tags,
    ...(skill.examples === undefined ? {} : { examples: skill.examples }),
    ...(skill.inputModes === undefined ? {} : { inputModes: skill.inputModes }),
    ...(skill.outputModes === undefined ? {} : { outputModes: skill.outputModes }),
  }));
  return JSON.stringify({
    name: card.name,
    description: card.description,
    ...(face.protocolVersions.includes('1.0') ? { supportedInterfaces: interfaces } : {}),
    ...(speaks03 ? { url, protocolVersion: '0.3.0', preferredTransport: 'JSONRPC' } : {}),
    ...(card.provider === undefined ? {} : { provider: card.provider }),
    version: card.version,
    ...(card.documentationUrl === undefined ? {} : { documentationUrl: card.documentationUrl }),
    ...(card.iconUrl === undefined ? {} : { iconUrl: card.iconUrl }),
    capabilities: { streaming: card.streaming, pushNotifications: false },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills,
  });
}
