/**
 * Per-request `labels` (billing and attribution) carried from a turn's run config onto every
 * model request of the turn, as the reference AdkApp does with `RunConfig(labels=...)` (Python
 * ADK copies them into each request's `config.labels`, which Vertex AI bills by).
 *
 * `@google/adk` for TypeScript has no `labels` in its `RunConfig`, but keeps any extra key
 * (`createRunConfig` spreads what it is given), and its model requests do carry
 * `config.labels`. So AgentApp puts the labels in the run config under `labels`, where plugins
 * and callbacks can read them (`context.invocationContext.runConfig.labels`), and this plugin,
 * on every runner AgentApp builds, merges them into each model request. Labels the agent set on
 * the request itself (its `generateContentConfig`, an earlier callback) win over the run's.
 */
import { BasePlugin, type Context, type LlmRequest, type LlmResponse, type RunConfig } from '@google/adk';

export type Labels = Record<string, string>;

/** `runConfig` with `labels`, a key ADK's TypeScript RunConfig type does not declare. */
export function withLabels(runConfig: RunConfig, labels: Labels): RunConfig {
  return { ...runConfig, labels } as RunConfig;
}

export function labelsOf(runConfig: RunConfig | undefined): Labels | undefined {
  const labels = (runConfig as { labels?: unknown } | undefined)?.labels;
  return typeof labels === 'object' && labels !== null && !Array.isArray(labels) ? (labels as Labels) : undefined;
}

export class RunLabelsPlugin extends BasePlugin {
  constructor() {
    super('agentgen_run_labels');
  }

  override async beforeModelCallback({ callbackContext, llmRequest }: { callbackContext: Context; llmRequest: LlmRequest }): Promise<LlmResponse | undefined> {
    const labels = labelsOf(callbackContext.invocationContext.runConfig);
    if (labels === undefined || Object.keys(labels).length === 0) return undefined;
    llmRequest.config ??= {};
    llmRequest.config.labels = { ...labels, ...llmRequest.config.labels };
    return undefined;
  }
}
