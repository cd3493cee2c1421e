/**
 * The spec's `a2a:` section (format version 1): the agent's A2A face, served by the generated
 * container beside the two contract routes. The card's own fields (A2A's AgentCard), where the
 * container mounts it, and which protocol versions it speaks. Shapes only; what the fields mean
 * together (skill ids, the mount against the container's other routes, streaming against the
 * declared operations) is checked by `resolve/a2a-face.ts`.
 */
import { z } from 'zod';

export const a2aProtocolVersions = ['1.0', '0.3'] as const;

const text = (what: string, max: number) =>
  z
    .string()
    .min(1, `expected a non-empty ${what}`)
    .max(max, `expected at most ${max} characters`)
    .refine((value) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(value), 'expected no control characters');

const httpUrl = z
  .url({ error: 'expected an absolute URL' })
  .refine((value) => /^https?:\/\//.test(value), 'expected an http or https URL')
  .refine((value) => value.length <= 2048, 'expected at most 2048 characters');

/** A media type such as `text/plain` or `application/json` (the card's input and output modes). */
const mediaType = z.string().regex(/^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9*][a-z0-9!#$&^_.+*-]{0,63}$/, 'expected a media type such as text/plain');
const modes = z.array(mediaType).min(1, 'expected at least one media type');

const skillFormat = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'expected an id of letters, digits, "_", "." and "-" (at most 64 characters)'),
  name: text('name', 200),
  description: text('description', 2000),
  tags: z.array(text('tag', 100)).optional(),
  examples: z.array(text('example', 1000)).optional(),
  input_modes: modes.optional(),
  output_modes: modes.optional(),
});

export const a2aFormat = z.strictObject({
  /** The card's name; default: the spec's `name`. */
  name: text('name', 200).optional(),
  description: text('description', 2000),
  /** The agent's version, as the card shows it; default `1.0.0`. */
  version: text('version', 64).optional(),
  provider: z.strictObject({ organization: text('organization', 200), url: httpUrl }).optional(),
  documentation_url: httpUrl.optional(),
  icon_url: httpUrl.optional(),
  /** The JSON-RPC endpoint's path in the container; default `/a2a/{name}`, as Google's agents-cli mounts it. */
  mount: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'expected a path such as /a2a/my-agent: segments of letters, digits, ".", "_", "~" and "-"')
    .optional(),
  /** Default both: 1.0 first, 0.3 for Gemini Enterprise and ADK's RemoteA2AAgent. */
  protocol_versions: z
    .array(z.enum(a2aProtocolVersions, { error: `expected one of ${a2aProtocolVersions.map((v) => JSON.stringify(v)).join(', ')}` }))
    .min(1, 'expected at least one protocol version')
    .optional(),
  /** `capabilities.streaming` of the card; default true. */
  streaming: z.boolean().optional(),
  input_modes: modes.optional(),
  output_modes: modes.optional(),
  skills: z.array(skillFormat).min(1, 'expected at least one skill: a card says what the agent does by its skills'),
});

export type A2ASpec = z.infer<typeof a2aFormat>;
