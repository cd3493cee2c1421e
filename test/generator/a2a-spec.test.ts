/** Issue 43, item 2: the spec's `a2a:` section, checked at its line like every other section, and what it generates. */
import { describe, expect, test } from 'vitest';
import { generateFromText } from '../helpers/generate.js';
import { specErrorOf } from './spec-error-of.js';

const head = 'agentgen: 1\nname: weather\nsurface: agent-app@2\n';
const skills = '  skills:\n    - { id: weather, name: Weather, description: The weather in a city. }\n';
const a2a = (body: string) => `${head}a2a:\n  description: Tells the weather.\n${body}`;

const cases: [what: string, spec: string, message: RegExp][] = [
  ['no skills', a2a('  skills: []\n'), /^agentgen\.yaml:6:11: a2a\.skills: expected at least one skill: a card says what the agent does by its skills$/],
  ['a section without skills', a2a(''), /^agentgen\.yaml:5:3: a2a\.skills: missing; expected array$/],
  [
    'two skills with one id',
    a2a(`${skills}    - { id: weather, name: Again, description: The same id. }\n`),
    /^agentgen\.yaml:8:13: a2a\.skills\[1\]\.id: expected a unique skill id: another skill has this one$/,
  ],
  [
    'a skill id with a space',
    a2a('  skills:\n    - { id: "the weather", name: W, description: D }\n'),
    /^agentgen\.yaml:7:13: a2a\.skills\[0\]\.id: expected an id of letters, digits/,
  ],
  [
    'a mount under /api/',
    a2a(`  mount: /api/a2a\n${skills}`),
    /^agentgen\.yaml:6:10: a2a\.mount: expected a path of its own: \/api\/… holds the contract routes/,
  ],
  ['a mount on liveness', a2a(`  mount: /health\n${skills}`), /^agentgen\.yaml:6:10: a2a\.mount: expected a path of its own/],
  ['a mount that is no path', a2a(`  mount: a2a/x?y\n${skills}`), /^agentgen\.yaml:6:10: a2a\.mount: expected a path such as \/a2a\/my-agent/],
  ['an unknown protocol version', a2a(`  protocol_versions: ['0.2']\n${skills}`), /a2a\.protocol_versions\[0\]: expected one of "1\.0", "0\.3"/],
  ['an unknown field', a2a(`  streamin: true\n${skills}`), /a2a: unknown field "streamin"/],
  ['a provider URL that is not one', a2a(`  provider: { organization: x, url: nowhere }\n${skills}`), /a2a\.provider\.url: expected an absolute URL/],
  [
    'streaming without a streaming operation to serve it',
    `agentgen: 1\nname: weather\nsurface: agent-app@2\ninclude: [async_create_session]\na2a:\n  description: D\n  streaming: true\n${skills}`,
    /^agentgen\.yaml:7:14: a2a\.streaming: a streaming A2A face needs a streaming operation to serve its turns/,
  ],
  [
    'an operation named as the A2A handler',
    `agentgen: 1\nname: w\noperations:\n  a2aTurn: { api_mode: async_stream }\na2a:\n  description: D\n${skills}`,
    /operations\.a2aTurn: expected another name: with an a2a section, a2aTurn is the handler that answers A2A messages/,
  ],
];

describe('a spec mistake in the a2a section is reported at its line', () => {
  test.each(cases)('%s', (_what, spec, message) => {
    expect(specErrorOf(spec)).toMatch(message);
  });
});

describe('the a2a section in the generated server', () => {
  test('defaults: the spec name, /a2a/{name}, both versions, streaming, text/plain', () => {
    const { model, files } = generateFromText(a2a(skills));
    expect(model.a2a).toEqual({
      mount: '/a2a/weather',
      protocolVersions: ['1.0', '0.3'],
      card: {
        name: 'weather',
        description: 'Tells the weather.',
        version: '1.0.0',
        streaming: true,
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 'weather', name: 'Weather', description: 'The weather in a city.', tags: [] }],
      },
    });
    const server = files.find((file) => file.path === 'server.ts')!.contents;
    expect(server).toContain('export interface AgentHandlers extends A2AHandlers {');
    expect(server).toContain("export const a2aFace: A2AFace = { mount: '/a2a/weather'");
    expect(server).toContain('return createContainer(operations, handlers, options, a2aFace);');
  });

  test('spec text reaches the card as a string literal, never as code', () => {
    const { files } = generateFromText(a2a(`  name: "x' + process.exit(1) + '*/"\n${skills}`));
    const server = files.find((file) => file.path === 'server.ts')!.contents;
    expect(server).toContain(`name: 'x\\' + process.exit(1) + \\'*/'`);
  });

  test('a spec without the section generates no A2A face; the section is part of the model hash', () => {
    const without = generateFromText(`${head}`);
    expect(without.model.a2a).toBeUndefined();
    expect(without.files.find((file) => file.path === 'server.ts')!.contents).not.toContain('a2a');
    expect(generateFromText(a2a(skills)).model.hash).not.toBe(without.model.hash);
  });
});
