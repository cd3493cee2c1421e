/**
 * `agentgen manifest --format terraform` prints what `terraform fmt` would leave as it is.
 * `terraform fmt` is hclwrite's format (hashicorp/terraform internal/command/fmt.go: parse, the
 * rewrites of `"${x}"`-only strings and variable types that this output never has, then hclwrite's
 * `Bytes`, which formats); @cdktf/hcl-tools is HashiCorp's build of that Go code
 * (`hclwrite.Format`) as WebAssembly, so each case is run through the real formatter.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from '@cdktf/hcl-tools';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { manifestCommand } from '../../cli/src/manifest-command.js';
import { root } from '../generator/golden-cases.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-terraform-fmt-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function terraform(spec: string | undefined, cwd = dir, env: NodeJS.ProcessEnv = {}): Promise<string> {
  if (spec !== undefined) writeFileSync(join(cwd, 'agentgen.yaml'), spec);
  let out = '';
  let err = '';
  const code = await manifestCommand({ format: 'terraform' }, { cwd, stdout: (t) => void (out += t), stderr: (t) => void (err += t) }, env);
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return out;
}

const deploy = `deploy:
  project: my-project
  location: us-central1
  image: example.com/agent:1
`;

const smallSpec = `agentgen: 1
name: small-agent
operations:
  ask:
    api_mode: ""
    input:
      type: object
      properties:
        question: { type: string }
      required: [question]
${deploy}  port: 9000
  env:
    A: one
    LONGER_NAME: two
  secret_env:
    KEY: { secret: k, version: "3" }
  min_instances: 1
  cpu: 2
  memory: 4Gi
  labels: { app: small, cost-center: x }
`;

/** What terraform fmt prints for smallSpec (the test checks it with hclwrite too). */
const smallExpected = `resource "google_vertex_ai_reasoning_engine" "small-agent" {
  # Not set by this resource (google_vertex_ai_reasoning_engine has no argument for them): spec.containerSpec.port = 9000. Set them with agentgen deploy or the REST body.
  display_name = "small-agent"
  project      = "my-project"
  region       = "us-central1"
  labels = {
    "app"         = "small"
    "cost-center" = "x"
  }

  spec {
    agent_framework = "custom"
    class_methods = jsonencode([
      {
        "name"        = "ask"
        "api_mode"    = ""
        "description" = ""
        "parameters" = {
          "properties" = {
            "question" = {
              "type" = "string"
            }
          }
          "required" = [
            "question",
          ]
          "type" = "object"
        }
      },
    ])

    container_spec {
      image_uri = "example.com/agent:1"
    }

    deployment_spec {
      min_instances = 1
      resource_limits = {
        "cpu"    = "2"
        "memory" = "4Gi"
      }

      env {
        name  = "A"
        value = "one"
      }

      env {
        name  = "LONGER_NAME"
        value = "two"
      }

      secret_env {
        name = "KEY"

        secret_ref {
          secret  = "k"
          version = "3"
        }
      }
    }
  }
}
`;

/** Keys hclwrite counts in grapheme clusters: wide, combining (after the opening quote too), joined emoji, template escapes. */
const wideKeysSpec = `agentgen: 1
name: wide-keys
operations:
  ask:
    api_mode: ""
    input:
      type: object
      properties:
        settings:
          type: object
          default: { "café": 1, "🌦🌦": 2, "e\\u0301\\u0301": 3, "\\u0301a": 4, "日本語": 5, "👩‍👩‍👧": 6, x: 7, "a$\${b}": 8, "%{x}\\u0301": 9, "q\\"\\\\": 10 }
${deploy}`;

/** Text that needs every escape of an HCL string; YAML-quoted with JSON.stringify. */
const hostile = `a "quote", a \\ backslash, \${jsonencode("x")}, %{ if true }y%{ endif }, tab\t, line\n two \u2028 é`;
const deployText = JSON.stringify(hostile.replace(/\$\{/g, '$$$${')); // deploy: reads ${VAR}; $${ is a literal ${
const hostileSpec = `agentgen: 1
name: hostile-agent
operations:
  ask:
    api_mode: ""
    description: ${JSON.stringify(hostile)}
    input:
      type: object
      properties:
        ${JSON.stringify(hostile)}: { type: string, default: ${JSON.stringify(hostile)} }
        short: { type: string, default: ${JSON.stringify(hostile)} }
${deploy}  description: ${deployText}
  env:
    NOTE: ${deployText}
`;

/** A source deploy with every new field: the variable block, inline_source, image_spec, the notes. */
const sourceSpec = `agentgen: 1
name: source-agent
surface: agent-app
deploy:
  project: my-project
  location: us-central1
  identity: agent
  min_instances: 75
  build_args: { NODE_VERSION: "22", A: b }
  agent_gateway: { agent_to_anywhere: projects/my-project/locations/us-central1/agentGateways/out }
`;
const sourceNoArgsSpec = `agentgen: 1
name: source-agent
surface: agent-app
deploy: { project: my-project, location: us-central1 }
`;

describe('--format terraform is terraform fmt clean', () => {
  test('a small spec prints exactly what terraform fmt prints: two-space indents, aligned =, arguments then blocks after a blank line', async () => {
    expect(await format(smallExpected)).toBe(smallExpected);
    expect(await terraform(smallSpec)).toBe(smallExpected);
  });

  test.each([
    ['the example', undefined],
    ['wide and combining keys', wideKeysSpec],
    ['hostile text', hostileSpec],
    ['a source deploy with every new field', sourceSpec],
    ['a source deploy without build args (image_spec {})', sourceNoArgsSpec],
  ])('%s: hclwrite.Format changes nothing, and no line ends in a space', async (_name, spec) => {
    const hcl =
      spec === undefined
        ? await terraform(undefined, join(root, 'examples/weather-agent'), { GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1' })
        : await terraform(spec);
    expect(await format(hcl)).toBe(hcl);
    expect(hcl).not.toMatch(/[ \t]$/m);
  });
});
