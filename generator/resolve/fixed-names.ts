import { reservedClientNames } from '@agentgen/runtime/client';
/**
 * Names that generated files define whatever the spec says. An operation whose derived type
 * name would shadow one of them is a spec error, not a silent rename.
 */
export const fixedTypeNames: readonly string[] = [
  'QueryRequest',
  'ContainerRequest',
  'UnaryResponse',
  'ErrorBody',
  'OperationName',
  'AgentHandlers',
  'AgentClient',
];

/** Members of the generated client besides the operations: the runtime's own names. */
export const builtInClientMembers: ReadonlySet<string> = new Set(reservedClientNames);
