/**
 * The `deploy:` section → a checked `DeployConfig`. `generate` and `check` run it without an
 * environment (values that refer to `${VAR}` are checked later); `manifest --format rest|…` and
 * `deploy` run it with the process's environment, so every value is final and checked. Kept out of
 * the `Model`: deploy settings never change a generated file (nor the model hash in its header).
 */
import type { DeploySection } from '../load/deploy-format.js';
import type { SpecProblem } from '../load/spec-error.js';
import type { SpecDocument } from '../load/spec-format.js';
import * as rules from './deploy-rules.js';
import { type Environment, fillReferences, hasReferences } from './env-references.js';

export interface DeployConfig {
  readonly displayName: string;
  readonly description: string | undefined;
  readonly project: string | undefined;
  readonly location: string | undefined;
  readonly resource: string | undefined;
  /** The container image; undefined means a source deploy (the platform builds the project's Dockerfile). */
  readonly image: string | undefined;
  /** `--build-arg`s of a source deploy's build, sorted by name. */
  readonly buildArgs: Readonly<Record<string, string>>;
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
  /** `async_query:` as written: undefined when the spec does not say (then no later change is reported). */
  readonly asyncQuery: boolean | undefined;
  readonly agentGateway: { readonly clientToAgent: string | undefined; readonly agentToAnywhere: string | undefined } | undefined;
}

/** `identity:` in either spelling → the API's `identityType` name. */
export function identityTypeOf(identity: DeploySection['identity']): DeployConfig['identity'] {
  if (identity === undefined) return undefined;
  return identity === 'agent' || identity === 'AGENT_IDENTITY' ? 'AGENT_IDENTITY' : 'SERVICE_ACCOUNT';
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
    keyed(['labels', key], rules.labelKeyProblem(key) ?? rules.reservedLabelProblem(key));
    return [key, value(raw, ['labels', key], rules.labelValueProblem) ?? ''] as const;
  });
  // agentgen's own labels (async query, a source deploy's digest) count against the platform's limit like the spec's.
  const labelCount = rules.labelCountProblem(labels.length + (section.async_query === true ? 1 : 0) + (section.image === undefined ? 1 : 0));
  if (labelCount !== undefined) problems.push({ path: at('labels'), message: labelCount });

  const minInstances = number(section.min_instances, 'min_instances', (n) => rules.instancesProblem('min', n));
  const maxInstances = number(section.max_instances, 'max_instances', (n) => rules.instancesProblem('max', n));
  if (minInstances !== undefined && maxInstances !== undefined && minInstances > maxInstances) {
    problems.push({ path: at('min_instances'), message: `min_instances ${minInstances} is more than max_instances ${maxInstances}` });
  }
  const buildArgs = Object.entries(section.build_args ?? {}).map(([name, raw]) => {
    keyed(['build_args', name], rules.buildArgNameProblem(name));
    return [name, value(raw, ['build_args', name]) ?? ''] as const;
  });
  // A source deploy builds the Dockerfile; an image deploy builds nothing, so its build args would be dropped silently.
  if (section.image !== undefined && section.build_args !== undefined) {
    problems.push({
      path: at('build_args'),
      message: 'build_args are for a source deploy (no image:), where the platform builds the Dockerfile; remove them or remove image:',
    });
  }
  // `spec.containerSpec` and `spec.sourceCodeSpec` are one oneof (`deployment_source`, v1beta1
  // reasoning_engine.proto): a source deploy cannot send containerSpec.port.
  if (section.image === undefined && section.port !== undefined) {
    problems.push({
      path: at('port'),
      message:
        'port is containerSpec.port, for an image deploy; a source deploy sends no containerSpec (the API takes one of sourceCodeSpec and containerSpec): the built container listens on $PORT (8080); remove port, or set image:',
    });
  }
  const identity = identityTypeOf(section.identity);
  // "AGENT_IDENTITY: Use Agent Identity. The `service_account` field must not be set." (reasoning_engine.proto, IdentityType)
  if (identity === 'AGENT_IDENTITY' && section.service_account !== undefined) {
    problems.push({
      path: at('service_account'),
      message: "AGENT_IDENTITY runs as the engine's own identity: remove service_account, or set identity: service_account to run as it",
    });
  }
  const gateway = section.agent_gateway;
  if (gateway !== undefined && gateway.client_to_agent === undefined && gateway.agent_to_anywhere === undefined) {
    problems.push({ path: at('agent_gateway'), message: 'agent_gateway needs client_to_agent, agent_to_anywhere or both' });
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
    buildArgs: Object.fromEntries([...buildArgs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    agentFramework: value(section.agent_framework, ['agent_framework'], rules.agentFrameworkProblem) ?? (onAgentApp ? 'google-adk' : 'custom'),
    env: envEntries.sort(byName),
    secretEnv: secretEntries.sort(byName),
    minInstances,
    maxInstances,
    cpu: value(section.cpu, ['cpu'], rules.cpuProblem),
    memory: value(section.memory, ['memory'], rules.memoryProblem),
    containerConcurrency: number(section.container_concurrency, 'container_concurrency', rules.concurrencyProblem),
    serviceAccount: value(section.service_account, ['service_account'], rules.serviceAccountProblem),
    identity,
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
    asyncQuery: section.async_query,
    agentGateway:
      gateway === undefined
        ? undefined
        : {
            clientToAgent: value(gateway.client_to_agent, ['agent_gateway', 'client_to_agent'], rules.agentGatewayProblem),
            agentToAnywhere: value(gateway.agent_to_anywhere, ['agent_gateway', 'agent_to_anywhere'], rules.agentGatewayProblem),
          },
  };
}

/**
 * Whether the spec's `async_query:` asks for what the deployed engine cannot become. The API has
 * no field that enables `:asyncQuery`; only an engine created in one complete create request (the
 * SDK's path, and agentgen's) serves it, and it cannot be enabled later (adk-python #6220). agentgen
 * records it at creation as the label `agentgen-async-query: enabled` and reads it back here.
 * - spec true, engine without the label: it needs a new engine.
 * - spec false, engine with the label: it cannot be turned off either (the engine keeps serving
 *   `:asyncQuery`); refused too, so the spec never claims what the engine is not.
 * - spec silent: nothing to say. An engine created by other tools carries no label: agentgen
 *   takes it as created without async query.
 * Returns the message, or undefined when the deploy may go on.
 */
export function asyncQueryChange(config: Pick<DeployConfig, 'asyncQuery'>, deployed: unknown): string | undefined {
  if (config.asyncQuery === undefined) return undefined;
  const labels = deployed !== null && typeof deployed === 'object' ? (deployed as { labels?: unknown }).labels : undefined;
  const name = deployed !== null && typeof deployed === 'object' ? (deployed as { name?: unknown }).name : undefined;
  const engine = typeof name === 'string' ? name : 'the deployed engine';
  const enabled = labels !== null && typeof labels === 'object' && (labels as Record<string, unknown>)[rules.asyncQueryLabel] === rules.asyncQueryLabelValue;
  if (config.asyncQuery && !enabled) {
    return `async_query: true needs a new engine: ${engine} was created without async query, and it cannot be enabled later (only a create request enables :asyncQuery). Deploy under a new display_name (or delete the engine), or remove async_query`;
  }
  if (!config.asyncQuery && enabled) {
    return `async_query: false cannot be applied: ${engine} was created with async query and it cannot be turned off (it keeps serving :asyncQuery). Set async_query: true or remove it to deploy to this engine, or deploy under a new display_name for one without it`;
  }
  return undefined;
}
