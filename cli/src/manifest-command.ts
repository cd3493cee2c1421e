/**
 * `manifest`: the classMethods deploy manifest on stdout, or with `--format` the whole create
 * request in the form a deploy path takes (REST body, Terraform HCL or JSON, a curl command).
 * Loads no emitter but the manifest's and the chosen format's.
 */
import { resolve as resolvePath } from 'node:path';
import { createCommand, loadModel, manifestOf, manifestRequest, terraform } from '../../generator/index.js';
import type { Io } from './io.js';
import { specOption } from './options.js';
import { plainVerb } from './verb.js';

export const manifestFormats = ['class-methods', 'rest', 'terraform', 'terraform-json', 'curl', 'gcloud'] as const;
type ManifestFormat = (typeof manifestFormats)[number];

interface Args {
  readonly spec?: string;
  readonly format: ManifestFormat;
  readonly 'api-endpoint'?: string;
}

export async function manifestCommand(args: Args, io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const spec = args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec);
  if (args.format === 'class-methods') {
    io.stdout(`${JSON.stringify(await manifestOf(await loadModel(spec, io.cwd)), null, 2)}\n`);
    return 0;
  }
  const { loadDeployTarget } = await import('./deploy-target.js');
  const shell = args.format === 'curl' || args.format === 'gcloud';
  const { model, deploy } = await loadDeployTarget(spec, io.cwd, env, shell ? ['project', 'location'] : []);
  // A source deploy (no image:): the archive is a placeholder here; only `agentgen deploy` packs the project.
  const { body, note } = await manifestRequest(model, deploy);
  if (args.format === 'rest') {
    // stdout stays one JSON document (for jq and the like): the note goes to stderr.
    if (note !== undefined) io.stderr(`note: ${note}\n`);
    io.stdout(`${JSON.stringify(body, null, 2)}\n`);
  } else if (shell) {
    io.stdout(await createCommand(body, deploy, args.format as 'curl' | 'gcloud', args['api-endpoint']));
  } else {
    io.stdout(await terraform(args.format === 'terraform' ? 'hcl' : 'json', body, deploy, model.name));
  }
  return 0;
}

export const manifestVerb = plainVerb(
  {
    spec: specOption,
    format: {
      type: 'string',
      default: 'class-methods',
      choices: manifestFormats,
      describe:
        "What to print: 'class-methods' (the manifest JSON), 'rest' (the reasoningEngines.create body), 'terraform' (HCL), 'terraform-json' (.tf.json), 'curl' or 'gcloud' (a command that posts the body). All but class-methods need the spec's deploy: section.",
    },
    'api-endpoint': { type: 'string', describe: 'API base URL for curl/gcloud. Default: https://LOCATION-aiplatform.googleapis.com.' },
  },
  (args: Args, io: Io) => manifestCommand(args, io),
);
