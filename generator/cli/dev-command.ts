/** `dev`: the emulator (`emulator/cli.ts` declares the verb), with the manifest and description of a spec. */
import { devCommand, type DevSpec } from '../../emulator/cli.js';
import { buildCreateRequest } from '../emit/deploy-request.js';
import { buildManifest } from '../emit/manifest.js';
import { resolveDeploy } from '../resolve/deploy-config.js';
import { resolve } from '../resolve/resolve.js';
import { loadSpecFile } from './pipeline.js';
import type { Verb } from './verb.js';

/**
 * What the emulator's `GET /v1/{resource}` shows of a spec: its create request's manifest, display
 * name, agent framework and deployment spec (from the `deploy:` section; `${VAR}` values are shown
 * as written, since the emulator deploys nothing).
 */
export async function loadDevSpec(specFile: string | undefined, cwd: string): Promise<DevSpec> {
  const loaded = await loadSpecFile(specFile, cwd);
  const model = resolve(loaded);
  // `resolve` has checked the section already: no problems can be added here.
  const deploy = resolveDeploy(loaded.document, undefined, []);
  const { spec } = buildCreateRequest(model, deploy);
  return {
    manifest: buildManifest(model),
    displayName: deploy.displayName,
    agentFramework: deploy.agentFramework,
    ...(spec.deploymentSpec === undefined ? {} : { deploymentSpec: spec.deploymentSpec as Readonly<Record<string, unknown>> }),
  };
}

/** The emulator describes the verb itself; a test keeps its line equal to `agentgen --help`'s. */
export const devVerb: Verb = { register: devCommand(loadDevSpec) };
