/**
 * A reasoningEngine's resource name, `projects/{project}/locations/{location}/reasoningEngines/{id}`
 * (AIP-122), taken apart: the engine services serve one, the control plane names those it creates,
 * the container is told its parts, and the REST face asks whether the startup resource is one.
 */

export interface EngineName {
  readonly project: string;
  readonly location: string;
  readonly engineId: string;
}

/** The parts of `projects/{p}/locations/{l}/reasoningEngines/{id}`, or undefined for another shape. */
export function parseEngineName(resource: string): EngineName | undefined {
  const match = /^projects\/([^/]+)\/locations\/([^/]+)\/reasoningEngines\/([^/:]+)$/.exec(resource);
  return match === null ? undefined : { project: match[1] as string, location: match[2] as string, engineId: match[3] as string };
}
