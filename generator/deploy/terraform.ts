/**
 * The create request as a Terraform `google_vertex_ai_reasoning_engine` resource, in HCL
 * (`--format terraform`) and in Terraform's JSON syntax (`--format terraform-json`, a `.tf.json`).
 * Both are printed from one tree, built from the REST body: the same fields in snake_case, nested
 * messages as blocks (a repeated message as repeated blocks), maps as attributes, and the
 * manifest as `class_methods`, a JSON string (`jsonencode(...)` in HCL). Every spec string goes
 * through `escape.ts`: no value can become a Terraform expression. HCL reads all text in Unicode
 * NFC, so Terraform sends a string that is not in NFC in that form (the REST body keeps it as written).
 */

import type { ReasoningEngineBody } from '../../contract/index.js';
import type { DeployConfig } from '../resolve/deploy-config.js';
import { hclIdentifier, hclString, terraformJsonString } from '../schema/escape.js';

export const terraformResourceType = 'google_vertex_ai_reasoning_engine';

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/**
 * An attribute's value: plain data, data that Terraform should hold as its JSON text, or an
 * expression agentgen writes itself (never spec text: `filebase64(var.source_archive)`).
 */
type AttributeValue = { readonly data: Json } | { readonly jsonText: Json } | { readonly expression: string };
type Entry = { readonly attribute: string; readonly value: AttributeValue } | { readonly block: string; readonly body: Body };
type Body = readonly Entry[];

const attribute = (name: string, data: Json | undefined): Entry[] => (data === undefined ? [] : [{ attribute: name, value: { data } }]);
const block = (name: string, body: Body | undefined): Entry[] => (body === undefined || body.length === 0 ? [] : [{ block: name, body }]);
/** A block that means something even when empty (`image_spec {}`: build the Dockerfile). */
const presentBlock = (name: string, body: Body | undefined): Entry[] => (body === undefined ? [] : [{ block: name, body }]);

/** The variable a source deploy's archive comes from: Terraform reads the file and sends it base64. */
export const sourceArchiveVariable = 'source_archive';
const sourceArchiveExpression = `filebase64(var.${sourceArchiveVariable})`;
const sourceArchiveDescription =
  "Path to the project's .tar.gz (Dockerfile at its root). agentgen deploy packs it itself, honouring .gcloudignore or .dockerignore and leaving out secrets; a tarball made by hand must leave them out too.";

/** The resource's arguments, in the order the provider documents them. */
function resourceBody(body: ReasoningEngineBody, deploy: Pick<DeployConfig, 'project' | 'location'>): Body {
  const { spec } = body;
  const deployment = spec.deploymentSpec;
  return [
    ...attribute('display_name', body.displayName),
    ...attribute('description', body.description),
    ...attribute('project', deploy.project),
    ...attribute('region', deploy.location),
    ...attribute('labels', body.labels),
    ...block('encryption_spec', body.encryptionSpec && attribute('kms_key_name', body.encryptionSpec.kmsKeyName)),
    ...block('spec', [
      ...attribute('agent_framework', spec.agentFramework),
      { attribute: 'class_methods', value: { jsonText: spec.classMethods as Json } },
      ...attribute('service_account', spec.serviceAccount),
      ...attribute('identity_type', spec.identityType),
      ...block('container_spec', spec.containerSpec && attribute('image_uri', spec.containerSpec.imageUri)),
      // google_vertex_ai_reasoning_engine's source_code_spec (magic-modules mmv1/products/vertexai/ReasoningEngine.yaml):
      // inline_source.source_archive, a base64 string; image_spec {build_args}, sent even when empty.
      ...block(
        'source_code_spec',
        spec.sourceCodeSpec && [
          ...block('inline_source', spec.sourceCodeSpec.inlineSource && [{ attribute: 'source_archive', value: { expression: sourceArchiveExpression } }]),
          ...presentBlock('image_spec', spec.sourceCodeSpec.imageSpec && attribute('build_args', spec.sourceCodeSpec.imageSpec.buildArgs)),
        ],
      ),
      ...block(
        'deployment_spec',
        deployment && [
          ...(deployment.env ?? []).flatMap((env) => block('env', [...attribute('name', env.name), ...attribute('value', env.value)])),
          ...(deployment.secretEnv ?? []).flatMap((env) =>
            block('secret_env', [
              ...attribute('name', env.name),
              ...block('secret_ref', [...attribute('secret', env.secretRef.secret), ...attribute('version', env.secretRef.version)]),
            ]),
          ),
          ...attribute('min_instances', deployment.minInstances),
          ...attribute('max_instances', deployment.maxInstances),
          ...attribute('resource_limits', deployment.resourceLimits),
          ...attribute('container_concurrency', deployment.containerConcurrency),
        ],
      ),
    ]),
  ];
}

/**
 * What the create request sets that the resource has no argument for (the provider lacks
 * `containerSpec.port`, `deploymentSpec.keepAliveProbe`, `agentServerMode` and
 * `agentGatewayConfig`: magic-modules ReasoningEngine.yaml @02f9ece): said in the output, as a
 * comment, never dropped silently. The values are checked numbers, enum names, paths and
 * resource names without spaces, written as JSON. Also: `identity_type` is an argument of the
 * google-beta provider only.
 */
export function notInTerraform(body: ReasoningEngineBody): string[] {
  const { containerSpec, deploymentSpec } = body.spec;
  const fields: [string, unknown][] = [
    ['spec.containerSpec.port', containerSpec?.port],
    ['spec.deploymentSpec.keepAliveProbe', deploymentSpec?.keepAliveProbe],
    ['spec.deploymentSpec.agentServerMode', deploymentSpec?.agentServerMode],
    ['spec.deploymentSpec.agentGatewayConfig', deploymentSpec?.agentGatewayConfig],
  ];
  const missing = fields.filter(([, value]) => value !== undefined).map(([path, value]) => `${path} = ${JSON.stringify(value)}`);
  return [
    ...(missing.length === 0
      ? []
      : [
          `Not set by this resource (${terraformResourceType} has no argument for them): ${missing.join('; ')}. Set them with agentgen deploy or the REST body.`,
        ]),
    ...(body.spec.identityType === undefined ? [] : ['identity_type is an argument of the google-beta provider only (provider = google-beta).']),
  ];
}

// ---- HCL native syntax ----
// Printed in `terraform fmt`'s layout, so the output is already formatted. `terraform fmt` is
// hclwrite's format (hashicorp/hcl, hclwrite/format.go): two spaces per open bracket, one space
// around `=`, and the `=` of consecutive lines whose value ends on the same line aligned one space
// after the longest name (`formatCells`); a line that opens a value running over several lines
// (`labels = {`), a block's line, a comment or a blank line ends such a run. It changes no line
// breaks, so the blank lines are the style guide's: arguments first, then each nested block after
// a blank line.

/** A line whose `=` lines up with its neighbours' (an attribute or object key with a one-line value), or any other line. */
type Line = { readonly name: string; readonly value: string } | { readonly text: string };

/** A value on one line, or its opening bracket, the lines inside and its closing bracket. */
type Printed = { readonly inline: string } | { readonly open: string; readonly inside: Line[]; readonly close: string };

/** A JSON value as an HCL expression: quoted keys and strings (escaped), `[...]`, `{ k = v }`. */
function hclValue(value: Json, indent: string): Printed {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return { inline: JSON.stringify(value) };
  if (typeof value === 'string') return { inline: hclString(value) };
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return value.length === 0 ? { inline: '[]' } : { open: '[', inside: value.flatMap((item) => itemLines(item, inner)), close: ']' };
  }
  const entries = Object.entries(value as Record<string, Json>);
  if (entries.length === 0) return { inline: '{}' };
  return { open: '{', inside: entries.flatMap(([key, item]) => attributeLines(hclString(key), item, inner)), close: '}' };
}

/** `name = value` (an argument, or a key of an object), the value wrapped in a function call when `call` is given. */
function attributeLines(name: string, value: Json, indent: string, call?: string): Line[] {
  const printed = hclValue(value, indent);
  const [before, after] = call === undefined ? ['', ''] : [`${call}(`, ')'];
  if ('inline' in printed) return [{ name: `${indent}${name}`, value: `${before}${printed.inline}${after}` }];
  return [{ text: `${indent}${name} = ${before}${printed.open}` }, ...printed.inside, { text: `${indent}${printed.close}${after}` }];
}

/** An element of a list, with its comma. */
function itemLines(value: Json, indent: string): Line[] {
  const printed = hclValue(value, indent);
  if ('inline' in printed) return [{ text: `${indent}${printed.inline},` }];
  return [{ text: `${indent}${printed.open}` }, ...printed.inside, { text: `${indent}${printed.close},` }];
}

/** A block's body: its arguments, then each nested block after a blank line. */
function bodyLines(body: Body, indent: string): Line[] {
  const lines: Line[] = [];
  for (const entry of body) {
    if (!('attribute' in entry)) continue;
    const { value } = entry;
    if ('expression' in value) lines.push({ name: `${indent}${entry.attribute}`, value: value.expression });
    else
      lines.push(
        ...('data' in value ? attributeLines(entry.attribute, value.data, indent) : attributeLines(entry.attribute, value.jsonText, indent, 'jsonencode')),
      );
  }
  for (const entry of body) {
    if (!('block' in entry)) continue;
    if (lines.length > 0) lines.push({ text: '' });
    lines.push({ text: `${indent}${entry.block} {` }, ...bodyLines(entry.body, `${indent}  `), { text: `${indent}}` });
  }
  return lines;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * How many columns hclwrite counts for an indented name (`Tokens.Columns`): grapheme clusters,
 * a quoted key's quotes being tokens of their own (a combining mark after `"` is not joined to it).
 */
function columns(name: string): number {
  const quoted = /^( *)"(.*)"$/s.exec(name);
  const count = (text: string): number => [...graphemes.segment(text)].length;
  return quoted === null ? count(name) : quoted[1]!.length + 2 + count(quoted[2]!);
}

/** The lines as text: each run of consecutive `name = value` lines has its `=` one space after its longest name. */
function printLines(lines: readonly Line[]): string {
  let text = '';
  for (let start = 0; start < lines.length;) {
    let end = start;
    while (end < lines.length && 'name' in lines[end]!) end++;
    if (end === start) {
      text += `${(lines[start] as { text: string }).text}\n`;
      start++;
      continue;
    }
    const run = lines.slice(start, end) as { name: string; value: string }[];
    const width = Math.max(...run.map((line) => columns(line.name)));
    for (const line of run) text += `${line.name}${' '.repeat(width - columns(line.name))} = ${line.value}\n`;
    start = end;
  }
  return text;
}

/** The `variable "source_archive"` block a source deploy needs, and a blank line, in HCL. */
function sourceVariableLines(body: ReasoningEngineBody): Line[] {
  if (body.spec.sourceCodeSpec?.inlineSource === undefined) return [];
  return [
    { text: '# A source deploy (no image:): Terraform sends the .tar.gz at var.source_archive, and the platform builds its Dockerfile.' },
    { text: `variable "${sourceArchiveVariable}" {` },
    { name: '  description', value: hclString(sourceArchiveDescription) },
    { name: '  type', value: 'string' },
    { text: '}' },
    { text: '' },
  ];
}

export function terraformHcl(body: ReasoningEngineBody, deploy: DeployConfig, resourceName: string): string {
  const notes = notInTerraform(body).map((note): Line => ({ text: `  # ${note}` }));
  return printLines([
    ...sourceVariableLines(body),
    { text: `resource "${terraformResourceType}" "${hclIdentifier(resourceName)}" {` },
    ...notes,
    ...bodyLines(resourceBody(body, deploy), '  '),
    { text: '}' },
  ]);
}

// ---- JSON syntax (.tf.json) ----

/** Data in the JSON syntax: every string (keys of maps included) with its template sequences escaped. */
function tfJsonData(value: Json): Json {
  if (typeof value === 'string') return terraformJsonString(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(tfJsonData);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [terraformJsonString(k), tfJsonData(v as Json)]));
}

/** A body as a JSON object; a block that repeats becomes an array of objects. */
function tfJsonBody(body: Body): { [key: string]: Json } {
  const object: { [key: string]: Json } = {};
  for (const entry of body) {
    if ('attribute' in entry) {
      const { value } = entry;
      // In the JSON syntax an expression is a string template: "${...}".
      object[entry.attribute] =
        'expression' in value ? `\${${value.expression}}` : 'data' in value ? tfJsonData(value.data) : terraformJsonString(JSON.stringify(value.jsonText));
      continue;
    }
    const nested = tfJsonBody(entry.body);
    const repeats = body.filter((other) => 'block' in other && other.block === entry.block).length > 1;
    object[entry.block] = repeats ? [...((object[entry.block] as Json[] | undefined) ?? []), nested] : nested;
  }
  return object;
}

export function terraformJson(body: ReasoningEngineBody, deploy: DeployConfig, resourceName: string): string {
  // `//` is the JSON syntax's comment property.
  const notes = notInTerraform(body);
  const resource = { ...(notes.length > 0 ? { '//': notes.join(' ') } : {}), ...tfJsonBody(resourceBody(body, deploy)) };
  const variable =
    body.spec.sourceCodeSpec?.inlineSource === undefined
      ? {}
      : { variable: { [sourceArchiveVariable]: { description: terraformJsonString(sourceArchiveDescription), type: 'string' } } };
  const document = { ...variable, resource: { [terraformResourceType]: { [hclIdentifier(resourceName)]: resource } } };
  return `${JSON.stringify(document, null, 2)}\n`;
}
