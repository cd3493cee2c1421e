/**
 * Which folder of the repository may import which: the rules the import graph keeps (issue 30).
 *
 * - `runtime/src` and `agent-app/src` are published packages: they import nothing of the
 *   repository outside their own folder (AgentApp: and its generated surface; other packages only
 *   by package name).
 * - `generator/` runs one way, load → resolve → emit → write: no stage imports a later one, and
 *   the schema layer (`generator/schema/`, JSON Schema → TypeScript text, zod text, live zod, and
 *   the escaping and naming every stage uses) imports no stage at all. `pipeline.ts` composes the
 *   stages; nothing of the generator imports it. `deploy/` (the renderings of the create request
 *   for `manifest` and `deploy`) stands beside emit: it reads the resolved model, and no stage
 *   imports it. `index.ts` is the generator's one face: nothing of the generator imports it.
 * - `generator/` imports nothing of the emulator, the conformance checker or the CLI.
 * - `emulator/` and `conformance/` import nothing of `generator/` but the schema layer and the
 *   model, and nothing of the CLI.
 * - `emulator/` is cut into rooms that import one way (`emulatorRooms`, lowest first): a room
 *   imports only rooms below it and `limits.ts`; `limits.ts` imports nothing of the emulator; the
 *   entry (`index.ts`) and the composition (`emulator.ts`) import any room, and no room imports them.
 * - `contract/` (the contract as data) imports only itself.
 * - `terminal/` (text as a terminal may be given it: the escaping of what the CLI and dev print)
 *   imports only itself, so that the CLI's deploy and the emulator both use it without the CLI
 *   loading the emulator for one function (about 40 ms of CPU when deploy-command.ts is imported).
 * - `cli/src` composes everything, but reaches `generator/`, `conformance/` and `emulator/` only
 *   through their entry files (`index.ts`); tests may go deeper.
 */

/** The generator's stages in the order they run; a stage may import only those before it. */
const stages = ['load', 'resolve', 'emit', 'write'] as const;

/** Where a repository file sits, as the rules see it. */
export type Place =
  | { readonly area: 'runtime' | 'agent-app' | 'contract' | 'terminal' | 'emulator' | 'conformance' | 'cli' | 'other' }
  | { readonly area: 'generator'; readonly part: 'schema' | 'model' | 'pipeline' | 'index' | 'deploy' | 'shared' | (typeof stages)[number] };

export function placeOf(path: string): Place {
  const [top, second, third] = path.split('/');
  if (top === 'runtime' && second === 'src') return { area: 'runtime' };
  if (top === 'agent-app' && second === 'src') return { area: 'agent-app' };
  if (top === 'cli' && second === 'src') return { area: 'cli' };
  if (top === 'contract' || top === 'terminal' || top === 'emulator' || top === 'conformance') return { area: top };
  if (top === 'generator') {
    if (third === undefined) {
      if (second === 'model.ts') return { area: 'generator', part: 'model' };
      if (second === 'pipeline.ts') return { area: 'generator', part: 'pipeline' };
      if (second === 'index.ts') return { area: 'generator', part: 'index' };
      return { area: 'generator', part: 'shared' }; // assets.ts, version.ts
    }
    if (second === 'schema') return { area: 'generator', part: 'schema' };
    if (second === 'deploy') return { area: 'generator', part: 'deploy' };
    const stage = stages.find((name) => name === second);
    if (stage !== undefined) return { area: 'generator', part: stage };
    throw new Error(`generator/${second}/ is neither a stage, deploy/ nor the schema layer: say where it sits in test/layering/layers.ts`);
  }
  return { area: 'other' };
}

/**
 * The emulator's rooms, lowest first: what each holds is in emulator/README.md. A room may import
 * the rooms before it, never one after it.
 */
export const emulatorRooms = [
  'text', // what dev prints: a caller's name quoted, batched log lines (its escaping is terminal/, shared with deploy)
  'google-api', // the Google API helpers: Status bodies, names, paging, operations, bounded bodies, update masks
  'proto', // the shipped .proto files, ProtoJSON and Struct conversions, the proto checks of a body
  'calls', // a public API call: its envelope, the declared method, its trace headers and signal
  'containers', // the containers dev runs and forwards to
  'core', // a call whichever face it came by; the resource
  'engine-services', // Sessions, Memory Bank, the metadata server
  'control-plane', // the management API: engines, operations, revisions, traffic
  'rest', // the REST face
  'grpc', // the gRPC face
  'console', // the dev console (its page and its server)
] as const;

/** The emulator's top-level files: its entry and composition, and the limits every room reads. */
const emulatorTopFiles = { entry: ['index.ts', 'emulator.ts', 'options.ts'], limits: ['limits.ts'] } as const;

type EmulatorPlace = { readonly room: (typeof emulatorRooms)[number] } | { readonly top: 'entry' | 'limits' };

/** Where an `emulator/` file sits; throws for a folder or top-level file the rules do not place. */
export function emulatorPlaceOf(path: string): EmulatorPlace {
  const [, second, third] = path.split('/');
  if (third === undefined) {
    if ((emulatorTopFiles.entry as readonly string[]).includes(second ?? '')) return { top: 'entry' };
    if ((emulatorTopFiles.limits as readonly string[]).includes(second ?? '')) return { top: 'limits' };
    throw new Error(`emulator/${second} is a top-level file the rules do not place: put it in a room, or say where it sits in test/layering/layers.ts`);
  }
  const room = emulatorRooms.find((name) => name === second);
  if (room === undefined) throw new Error(`emulator/${second}/ is not a room: add it to emulatorRooms in test/layering/layers.ts, in its place`);
  return { room };
}

function emulatorViolation(from: string, to: string): string | undefined {
  const source = emulatorPlaceOf(from);
  const target = emulatorPlaceOf(to);
  if ('top' in source) return source.top === 'limits' ? 'emulator/limits.ts imports nothing of the emulator' : undefined;
  if ('top' in target) return target.top === 'limits' ? undefined : `no room of the emulator imports its entry or composition (${to})`;
  const order = (place: { readonly room: (typeof emulatorRooms)[number] }) => emulatorRooms.indexOf(place.room);
  if (order(target) > order(source)) return `emulator/${source.room}/ imports the later room emulator/${target.room}/ (emulatorRooms runs one way)`;
  return undefined;
}

/** Why `from` may not import `to` (both repository paths), or undefined when it may. */
export function violation(from: string, to: string): string | undefined {
  const source = placeOf(from);
  const target = placeOf(to);
  const sameFolder = (prefix: string) => from.startsWith(prefix) && to.startsWith(prefix);
  switch (source.area) {
    case 'runtime':
      return sameFolder('runtime/src/') ? undefined : 'the runtime package imports nothing of the repository';
    case 'agent-app':
      // Its own sources, and the surface agentgen generated for it (agent-app/generated/, shipped in the package).
      return to.startsWith('agent-app/src/') || to.startsWith('agent-app/generated/')
        ? undefined
        : 'the agent-app package imports nothing of the repository but its own sources';
    case 'contract':
      return target.area === 'contract' ? undefined : 'contract/ (the contract as data) imports only itself';
    case 'terminal':
      return target.area === 'terminal' ? undefined : 'terminal/ (what the CLI and dev both print) imports only itself';
    case 'emulator':
    case 'conformance':
      if (target.area === 'cli') return `${source.area}/ does not import the CLI`;
      if (target.area === 'generator' && target.part !== 'schema' && target.part !== 'model') {
        return `${source.area}/ imports nothing of generator/ but the schema layer and the model`;
      }
      if (source.area === 'emulator' && target.area === 'conformance') return 'the emulator does not import the conformance checker';
      if (source.area === 'emulator' && target.area === 'emulator') return emulatorViolation(from, to);
      return undefined;
    case 'generator':
      if (target.area === 'emulator' || target.area === 'conformance' || target.area === 'cli') {
        return `generator/ imports nothing of ${target.area === 'cli' ? 'the CLI' : `${target.area}/`}`;
      }
      if (target.area !== 'generator') return undefined;
      return generatorViolation(source.part, target.part);
    case 'cli':
      if (target.area === 'generator' && to !== 'generator/index.ts') return 'cli/src reaches generator/ only through generator/index.ts';
      if (target.area === 'conformance' && to !== 'conformance/index.ts') return 'cli/src reaches conformance/ only through conformance/index.ts';
      if (target.area === 'emulator' && to !== 'emulator/index.ts') return 'cli/src reaches the emulator only through its entry, emulator/index.ts';
      return undefined;
    default:
      return undefined;
  }
}

type GeneratorPart = Extract<Place, { area: 'generator' }>['part'];

function generatorViolation(from: GeneratorPart, to: GeneratorPart): string | undefined {
  if (from === 'index') return undefined;
  if (to === 'index') return 'nothing of the generator imports index.ts: it is the face the CLI uses';
  if (to === 'pipeline' && from !== 'pipeline') return 'nothing of the generator imports the pipeline: it composes the stages';
  if (from === 'schema') {
    return to === 'schema' ? undefined : 'the schema layer imports no stage of the generator (every stage imports it)';
  }
  if (to === 'deploy' && from !== 'deploy' && from !== 'pipeline') return 'no stage imports deploy/: it renders the resolved model for manifest and deploy';
  if (from === 'deploy' && (to === 'emit' || to === 'write')) return `deploy/ reads the resolved model: it imports no ${to} stage`;
  const order = (part: GeneratorPart) => stages.indexOf(part as (typeof stages)[number]);
  if (order(from) >= 0 && order(to) > order(from)) return `the ${from} stage imports the later ${to} stage`;
  return undefined;
}
