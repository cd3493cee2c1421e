/**
 * The `ReasoningEngine` resource `GET /v1/{resource}` answers, in ProtoJSON field names as the
 * platform writes them (googleapis/python-aiplatform, google/cloud/aiplatform_v1/types/
 * reasoning_engine.py: `ReasoningEngine{name, display_name, spec, create_time, update_time}`,
 * `ReasoningEngineSpec{container_spec{image_uri}, deployment_spec, class_methods, agent_framework}`).
 * What a local emulator cannot know (the image, the deployment) is a placeholder, documented in
 * docs/dev.md.
 */
import type { DeploymentSpec, ManifestEntry, ReasoningEngineBody } from '../../contract/index.js';

/**
 * Stands for `spec.containerSpec.imageUri`: the emulator forwards to a process or URL, not an image.
 * `localhost/` is how local images are named (podman), so it cannot be mistaken for a registry's.
 */
export const localImageUri = 'localhost/agentgen-dev:local';

/** What the resource says beyond its name and `classMethods`. */
export interface ResourceDescription {
  /** The spec's `name`. Default: the resource's last segment. */
  readonly displayName?: string;
  /** `google-adk` for an agent on the AgentApp surface (the console shows its playground), else `custom`. */
  readonly agentFramework?: string;
  /**
   * `spec.deploymentSpec` (`env`, `minInstances`, `resourceLimits`...). The seam for a spec's future
   * `deploy:` section: what it declares goes here as it would in the create request. Default `{}`.
   */
  readonly deploymentSpec?: DeploymentSpec;
}

/**
 * The contract's create body, narrowed to what dev always fills in (`classMethods` as the
 * manifest's entries), plus the output-only fields the service adds (`name`, `createTime`,
 * `updateTime`).
 */
export interface ReasoningEngineResource extends Omit<ReasoningEngineBody, 'spec'> {
  readonly name: string;
  /** RFC 3339, as ProtoJSON writes a Timestamp. */
  readonly createTime: string;
  readonly updateTime: string;
  readonly spec: Omit<ReasoningEngineBody['spec'], 'classMethods'> & {
    readonly containerSpec: { readonly imageUri: string };
    readonly deploymentSpec: DeploymentSpec;
    readonly classMethods: readonly ManifestEntry[];
  };
}

/**
 * The resource as the platform would return it for this deployment. Created and last updated when
 * the emulator started: that is when this "deployment" came to be.
 */
export function describeResource(
  name: string,
  classMethods: readonly ManifestEntry[],
  startedAt: Date,
  description: ResourceDescription = {},
): ReasoningEngineResource {
  const time = startedAt.toISOString();
  return {
    name,
    displayName: description.displayName ?? name.slice(name.lastIndexOf('/') + 1),
    createTime: time,
    updateTime: time,
    spec: {
      agentFramework: description.agentFramework ?? 'custom',
      containerSpec: { imageUri: localImageUri },
      deploymentSpec: description.deploymentSpec ?? {},
      classMethods,
    },
  };
}
