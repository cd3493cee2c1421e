import { reservedClientNames } from '@agentgen/runtime/client';
import { envelopeSchemas } from '../../contract/index.js';
import { generatedTypeNames } from '../generated-names.js';

/**
 * Names that generated files define whatever the spec says. An operation whose derived type
 * name would shadow one of them is a spec error, not a silent rename.
 */
export const fixedTypeNames: readonly string[] = [...Object.keys(envelopeSchemas), ...Object.values(generatedTypeNames)];

/** Members of the generated client besides the operations: the runtime's own names. */
export const builtInClientMembers: ReadonlySet<string> = new Set(reservedClientNames);
