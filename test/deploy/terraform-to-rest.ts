/**
 * Reads the Terraform resource back into the REST body's shape, to compare the two field by field:
 * from HCL through a real HCL parser (`@cdktf/hcl2json`, which answers in Terraform's JSON
 * syntax), or from a `.tf.json` as it is. Strings are read as Terraform reads them (`$${` is a
 * literal `${`); `class_methods` is read back from its JSON (through `jsonencode(...)` in HCL).
 */
import { parse } from '@cdktf/hcl2json';

type Tf = Record<string, unknown>;

/** Blocks that are lists in the REST body; every other block is a single message. */
const repeatedBlocks = new Set(['env', 'secret_env']);

const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const untemplate = (text: string) => text.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{');

function readValue(value: unknown): unknown {
  if (typeof value === 'string') return untemplate(value);
  if (Array.isArray(value)) return value.map(readValue);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [untemplate(k), readValue(v)]));
  return value;
}

/** Blocks as hcl2json gives them (always a list) or as a .tf.json may write them (an object when single). */
const blocks = (value: unknown): Tf[] => (Array.isArray(value) ? (value as Tf[]) : [value as Tf]);

async function classMethods(value: string, fromHcl: boolean): Promise<unknown> {
  if (!fromHcl) return JSON.parse(untemplate(value));
  const match = /^\$\{jsonencode\(([\s\S]*)\)\}$/.exec(value);
  if (match === null) throw new Error(`class_methods is not jsonencode(...): ${value.slice(0, 80)}`);
  const parsed = (await parse('class-methods.tf', `value = ${match[1]}\n`)) as { value: unknown };
  return readValue(parsed.value);
}

const blockNames = new Set([
  'spec',
  'container_spec',
  'source_code_spec',
  'inline_source',
  'image_spec',
  'deployment_spec',
  'encryption_spec',
  'env',
  'secret_env',
  'secret_ref',
]);

/**
 * What `manifest --format rest` prints for a source deploy's archive, and what Terraform reads it
 * from: the one is read back as the other, so the two compare equal.
 */
const sourceArchiveExpression = '${filebase64(var.source_archive)}';
const sourceArchivePlaceholder = "<the project's .tar.gz, base64: agentgen deploy packs and sends it>";

async function readBody(body: Tf, fromHcl: boolean): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'project' || key === 'region') continue; // in the URL of the REST request, not its body
    if (key === '//') continue; // the JSON syntax's comment
    if (key === 'class_methods') out.classMethods = await classMethods(value as string, fromHcl);
    else if (key === 'source_archive') out.sourceArchive = value === sourceArchiveExpression ? sourceArchivePlaceholder : value;
    else if (key === 'identity_type' || !blockNames.has(key)) out[camel(key)] = readValue(value);
    else if (repeatedBlocks.has(key)) out[camel(key)] = await Promise.all(blocks(value).map((b) => readBody(b, fromHcl)));
    else out[camel(key)] = await readBody(blocks(value)[0]!, fromHcl);
  }
  return out;
}

/** The one `google_vertex_ai_reasoning_engine` resource: its REST body, project and region. */
export async function terraformToRest(document: Tf, fromHcl: boolean): Promise<{ body: Record<string, unknown>; project: unknown; region: unknown }> {
  const resources = (document.resource as Tf)['google_vertex_ai_reasoning_engine'] as Tf;
  const [only] = Object.values(resources);
  const body = blocks(only)[0]!;
  return { body: await readBody(body, fromHcl), project: body.project, region: body.region };
}

export async function hclToRest(hcl: string) {
  return terraformToRest((await parse('main.tf', hcl)) as Tf, true);
}
