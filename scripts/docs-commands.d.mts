// Types of docs-commands.mjs, for the TypeScript test that renders the page from the sources.
import type { VerbEntry } from '../cli/src/main.js';
import type { PlainVerb, Register } from '../cli/src/verb.js';

export function renderCommandsDoc(verbs: ReadonlyMap<string, VerbEntry>, registerPlain: (name: string, verb: PlainVerb) => Register): Promise<string>;
