/**
 * The `deploy:` section → a checked `DeployConfig`. `generate` and `check` run it without an
 * environment (values that refer to `${VAR}` are checked later); `manifest --format rest|…` and
 * `deploy` run it with the process's environment, so every value is final and checked. Kept out of
 * the `Model`: deploy settings never change a generated file (nor the model hash in its header).
 */
import type { DeploySection } from '../load/deploy-format.js';
import type { SpecDocument } from '../load/spec-format.js';
import type { SpecProblem } from '../load/spec-error.js';
import * as rules from './deploy-rules.js';
import { fillReferences, hasReferences, type Environment } from './env-references.js';

export interface DeployConfig {
  readonly displayName: string;
  readonly description: string | undefined;
  readonly project: string | undefined;
  readonly location: string | undefined;
  readonly resource: string | undefined;
  readonly image: string | undefined;
  readonly agentFramework: string;
  /** Sorted by name: the request is the same whatever order the spec lists them in. */
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly secretEnv: readonly { readonly name: string; readonly secret: string; readonly version: string }[];
  readonly minInstances: number | undefined;
  readonly maxInstances: number | undefined;
  readonly cpu: string | undefined;
  readonly memory: string | undefined;
  readonly containerConcurrency: number | undefined;
  readonly serviceAccount: string | undefined;
  readonly identity: 'SERVICE_ACCOUNT' | 'AGENT_IDENTITY' | undefined;
  readonly labels: Readonly<Record<string, string>>;
  readonly encryptionKey: string | undefined;
  readonly port: number | undefined;
  readonly keepAlive: { readonly path: string; readonly maxSeconds: number | undefined } | undefined;
  readonly agentServerMode: 'STABLE' | 'EXPERIMENTAL' | undefined;
}

type Rule = (value: string) => string | undefined;
const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Checks the section and, given an environment, fills in its references. Problems go to
 * `problems` with their path in the spec; the config is meaningful only when none were added.
 */
export function resolveDeploy(doc: SpecDocument | undefined, env: Environment | undefined, problems: SpecProblem[]): DeployConfig {
  const section: DeploySection = doc?.deploy ?? {};
  const at = (...path: (string | number)[]) => ['deploy', ...path];
  /** A string value: filled in (with an environment), then checked by `rule` unless it still waits for one. */
  const value = (raw: string | undefined, path: (string | number)[], rule?: Rule): string | undefined => {
    if (raw === undefined) return undefined;
    const filled = fillReferences(raw, env);
    if ('problem' in filled) {
      problems.push({ path: at(...path), message: filled.problem });
      return raw;
    }
    if (env === undefined && hasReferences(raw)) return raw; // checked once the environment fills it in
    const text = filled.value;
    const problem = rule?.(text);
    if (problem !== undefined) problems.push({ path: at(...path), message: problem });
    return text;
  };
  const number = (raw: number | undefined, path: string | (string | number)[], rule: (n: number) => string | undefined) => {
    const problem = raw === undefined ? undefined : rule(raw);
    if (problem !== undefined) problems.push({ path: at(...[path].flat()), message: problem });
    return raw;
  };
  const keyed = (path: (string | number)[], problem: string | undefined) => {
    if (problem !== undefined) problems.push({ path: at(...path), message: problem, atKey: true });
  };

  const envEntries = Object.entries(section.env ?? {}).map(([name, raw]) => {
    keyed(['env', name], rules.envNameProblem(name));
    return { name, value: value(raw, ['env', name]) ?? '' };
  });
  const secretEntries = Object.entries(section.secret_env ?? {}).map(([name, ref]) => {
    keyed(
      ['secret_env', name],
      rules.envNameProblem(name) ?? (Object.hasOwn(section.env ?? {}, name) ? `${name} is also under env; a variable is set once` : undefined),
    );
    return {
      name,
      secret: value(ref.secret, ['secret_env', name, 'secret'], rules.secretProblem) ?? '',
      version: value(ref.version ?? 'latest', ['secret_env', name, 'version'], rules.secretVersionProblem) ?? 'latest',
    };
  });
  const labels = Object.entries(section.labels ?? {}).map(([key, raw]) => {
    keyed(['labels', key], rules.labelKeyProblem(key));
    return [key, value(raw, ['labels', key], rules.labelValueProblem) ?? ''] as const;
  });
  const labelCount = rules.labelCountProblem(labels.length);
  if (labelCount !== undefined) problems.push({ path: at('labels'), message: labelCount });

  const minInstances = number(section.min_instances, 'min_instances', (n) => rules.instancesProblem('min', n));
  const maxInstances = number(section.max_instances, 'max_instances', (n) => rules.instancesProblem('max', n));
  if (minInstances !== undefined && maxInstances !== undefined && minInstances > maxInstances) {
    problems.push({ path: at('min_instances'), message: `min_instances ${minInstances} is more than max_instances ${maxInstances}` });
  }
  // AgentApp's surfaces are ADK agents: `google-adk` makes the console show its playground.
  const onAgentApp = doc === undefined || doc.surface !== undefined;
  return {
    displayName: value(section.display_name, ['display_name'], rules.displayNameProblem) ?? doc?.name ?? 'agent-app',
    description: value(section.description, ['description']),
    project: value(section.project, ['project'], rules.projectProblem),
    location: value(section.location, ['location'], rules.locationProblem),
    resource: value(section.resource, ['resource'], rules.resourceProblem),
    image: value(section.image, ['image'], rules.imageProblem),
    agentFramework: value(section.agent_framework, ['agent_framework'], rules.agentFrameworkProblem) ?? (onAgentApp ? 'google-adk' : 'custom'),
    env: envEntries.sort(byName),
    secretEnv: secretEntries.sort(byName),
    minInstances,
    maxInstances,
    cpu: value(section.cpu, ['cpu'], rules.cpuProblem),
    memory: value(section.memory, ['memory'], rules.memoryProblem),
    containerConcurrency: number(section.container_concurrency, 'container_concurrency', rules.concurrencyProblem),
    serviceAccount: value(section.service_account, ['service_account'], rules.serviceAccountProblem),
    identity: section.identity,
    labels: Object.fromEntries([...labels].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    encryptionKey: value(section.encryption_key, ['encryption_key'], rules.encryptionKeyProblem),
    port: number(section.port, 'port', rules.portProblem),
    keepAlive:
      section.keep_alive === undefined
        ? undefined
        : {
            path:
              value(section.keep_alive.path ?? rules.defaultKeepAlivePath, ['keep_alive', 'path'], rules.keepAlivePathProblem) ?? rules.defaultKeepAlivePath,
            maxSeconds: number(section.keep_alive.max_seconds, ['keep_alive', 'max_seconds'], rules.keepAliveSecondsProblem),
          },
    agentServerMode: section.agent_server_mode,
  };
}
