/** `dev`: the emulator (`emulator/cli.ts` declares the verb), with the manifest and description of a spec. */
import { devCommand, type DevSpec } from '../../emulator/cli.js';
import { buildManifest } from '../emit/manifest.js';
import { resolve } from '../resolve/resolve.js';
import { loadSpecFile } from './pipeline.js';
import type { Verb } from './verb.js';

/** What the emulator's `GET /v1/{resource}` shows of a spec, besides its manifest. */
export async function loadDevSpec(specFile: string | undefined, cwd: string): Promise<DevSpec> {
  const loaded = await loadSpecFile(specFile, cwd);
  const model = resolve(loaded);
  // No spec file is the standard surface; a spec with `surface:` starts from AgentApp's operations.
  const onAgentApp = loaded.document === undefined || loaded.document.surface !== undefined;
  return {
    manifest: buildManifest(model),
    displayName: model.name,
    agentFramework: onAgentApp ? 'google-adk' : 'custom',
    // spec.deploymentSpec: from the spec's `deploy:` section once the format has one; `{}` until then.
  };
}

/** The emulator describes the verb itself; a test keeps its line equal to `agentgen --help`'s. */
export const devVerb: Verb = { register: devCommand(loadDevSpec) };
