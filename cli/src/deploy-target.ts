/**
 * What the deploy-facing verbs (`manifest --format rest|terraform|…`, `deploy`, `breaking
 * --deployed`) work from: the resolved model and the `deploy:` section with its `${VAR}`
 * references filled in from the environment, every problem reported at `file:line:col`.
 */
import {
  type DeployConfig,
  type Environment,
  inTextOrder,
  loadSpecAndModel,
  type Model,
  resolveDeploy,
  SpecError,
  type SpecProblem,
} from '../../generator/index.js';

export interface DeployTarget {
  readonly model: Model;
  readonly deploy: DeployConfig;
}

/**
 * Which fields a use needs, beyond what the spec may leave out: named in the error when missing.
 * `image` is never required: without it, deploy sends the project's source.
 */
export type RequiredDeployField = 'project' | 'location';

export async function loadDeployTarget(
  specFile: string | undefined,
  cwd: string,
  env: Environment,
  required: readonly RequiredDeployField[],
): Promise<DeployTarget> {
  const { loaded, model } = await loadSpecAndModel(specFile, cwd);
  const problems: SpecProblem[] = [];
  const deploy = resolveDeploy(loaded.document, env, problems);
  const missing = required.filter((field) => deploy[field] === undefined);
  if (missing.length > 0) {
    const where = loaded.document?.deploy === undefined ? 'add a deploy: section with' : 'add to deploy:';
    problems.push({ path: loaded.document?.deploy === undefined ? [] : ['deploy'], message: `${where} ${missing.join(', ')} (needed for this output)` });
  }
  if (problems.length > 0) throw new SpecError(loaded.source, inTextOrder(problems, loaded.locate), loaded.locate);
  return { model, deploy };
}
