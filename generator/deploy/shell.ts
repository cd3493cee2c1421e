/**
 * `--format curl` and `--format gcloud`: a ready-to-run shell command that posts the create
 * request to `reasoningEngines.create`. The body and the URL are single-quoted words (`escape.ts`),
 * so nothing in the spec is ever expanded by the shell. No token is written: `curl` reads it from
 * `$ACCESS_TOKEN` when the command runs, `gcloud` asks `gcloud auth print-access-token` for one.
 */

import { defaultApiEndpoint, parentOf, type ReasoningEngineBody } from '../../contract/reasoning-engine.js';
import type { DeployConfig } from '../resolve/deploy-config.js';
import { shellQuote } from '../schema/escape.js';
import { sourcePlaceholderNote } from './create-request.js';

export type TokenSource = 'curl' | 'gcloud';

/** The API version `agentgen deploy` speaks (cli/src/deploy/reasoning-engines-client.ts): v1beta1, where revisions and traffic are. */
const createApiVersion = 'v1beta1';

const bearer: Record<TokenSource, string> = {
  // Double quotes on purpose: the shell expands the token when the command runs, never before.
  curl: '"Authorization: Bearer ${ACCESS_TOKEN:?set ACCESS_TOKEN, e.g. ACCESS_TOKEN=$(gcloud auth print-access-token)}"',
  gcloud: '"Authorization: Bearer $(gcloud auth print-access-token)"',
};

export function createCommand(body: ReasoningEngineBody, deploy: DeployConfig, tokenSource: TokenSource, apiEndpoint?: string): string {
  const base = apiEndpoint ?? defaultApiEndpoint(deploy.location!);
  const url = `${base.replace(/\/+$/, '')}/${createApiVersion}/${parentOf(deploy)}/reasoningEngines`;
  // Both formats are this curl command, `gcloud` only lending its token, so a source deploy is
  // expressed the same way in each (and equally partially). A source deploy's archive is a
  // placeholder the API refuses (not base64): said first, so nobody mistakes it for the project.
  const note =
    body.spec.sourceCodeSpec === undefined
      ? []
      : [`# ${sourcePlaceholderNote}`, '# Sent as it is, the API refuses it (sourceArchive is not base64): nothing is created.'];
  return [
    ...note,
    `curl --fail-with-body -sS -X POST \\`,
    `  -H ${bearer[tokenSource]} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data-binary ${shellQuote(JSON.stringify(body))} \\`,
    `  ${shellQuote(url)}`,
    '',
  ].join('\n');
}

/**
 * A ready-to-paste call of a deployed resource: `:query` with its first unary operation (a
 * session's creation when declared), else `:streamQuery` with its first one.
 */
export function queryCommand(resourceName: string, apiEndpoint: string, operations: readonly { readonly name: string; readonly api_mode: string }[]): string {
  const unary =
    operations.find((op) => op.name === 'async_create_session') ??
    operations.find((op) => op.name === 'create_session') ??
    operations.find((op) => op.api_mode === '' || op.api_mode === 'async');
  const chosen = unary ?? operations[0];
  const verb = unary === undefined ? 'streamQuery' : 'query';
  const input = chosen?.name.endsWith('create_session') ? { user_id: 'u1' } : {};
  const envelope = JSON.stringify(chosen === undefined ? { input } : { classMethod: chosen.name, input });
  return [
    `curl -sS -X POST -H ${bearer.gcloud} -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(envelope)} \\`,
    `  ${shellQuote(`${apiEndpoint.replace(/\/+$/, '')}/v1/${resourceName}:${verb}`)}`,
    '',
  ].join('\n');
}
