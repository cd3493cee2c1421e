/**
 * The metadata server the runtime gives a container, on dev's port: Google's auth library inside
 * a `--command` container (pointed here by `GCE_METADATA_HOST`) gets its project and an access
 * token as on the runtime, with no credentials on the machine. As Compute Engine's server it
 * answers only requests that carry `Metadata-Flavor: Google` and no `X-Forwarded-For` (so a
 * browser page or a proxied request cannot read the token), labels each answer
 * `Metadata-Flavor: Google` (gcp-metadata checks it), and here only for a caller on this machine.
 * The paths are those gcp-metadata 8 and google-auth-library 10 ask for.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ServiceError, sendJson, sendServiceError } from '../google-api/service-error.js';

export interface MetadataIdentity {
  readonly project: string;
  /** The access token handed out: one the engine services accept. */
  readonly token: string;
  /** The service account's address (made up: dev has no service account). */
  readonly email: string;
}

const flavor = { 'metadata-flavor': 'Google' } as const;
const scopes = ['https://www.googleapis.com/auth/cloud-platform'];
/** What the token endpoint says of its lifetime; dev's token does not expire, a client refreshes a little before this anyway. */
const tokenSeconds = 3599;

export const metadataPrefix = '/computeMetadata/';

/** Loopback, or a connection from this machine to one of its own addresses. */
function fromThisMachine(req: IncomingMessage): boolean {
  const peer = req.socket.remoteAddress ?? '';
  return /^(127\.|::1$|::ffff:127\.)/.test(peer) || peer === req.socket.localAddress;
}

function text(res: ServerResponse, body: string): number {
  res.writeHead(200, { ...flavor, 'content-type': 'application/text', 'content-length': Buffer.byteLength(body) }).end(body);
  return 200;
}

/** Answers a request under /computeMetadata/; returns the HTTP status sent. */
export function serveMetadata(req: IncomingMessage, res: ServerResponse, url: URL, identity: MetadataIdentity): number {
  if (!fromThisMachine(req)) return sendServiceError(res, new ServiceError('PERMISSION_DENIED', 'The metadata server answers this machine only.'), flavor);
  if (req.headers['metadata-flavor'] !== 'Google') {
    return sendServiceError(res, new ServiceError('PERMISSION_DENIED', 'Missing Metadata-Flavor:Google header.'), flavor);
  }
  if (req.headers['x-forwarded-for'] !== undefined) {
    return sendServiceError(res, new ServiceError('PERMISSION_DENIED', 'Requests with X-Forwarded-For are refused by the metadata server.'), flavor);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendServiceError(res, new ServiceError('UNIMPLEMENTED', 'The metadata server answers GET only.', 405), flavor);
  }
  const path = url.pathname.replace(/\/+$/, '');
  const recursive = url.searchParams.get('recursive') === 'true';
  const account = { aliases: ['default'], email: identity.email, scopes };
  const accountPath = /^\/computeMetadata\/v1\/instance\/service-accounts\/([^/]+)(\/.*)?$/.exec(path);
  if (accountPath !== null && accountPath[1] !== 'default' && accountPath[1] !== identity.email) {
    return sendServiceError(res, new ServiceError('NOT_FOUND', 'No such service account: this metadata server has "default" only.'), flavor);
  }
  switch (accountPath === null ? path : `/computeMetadata/v1/instance/service-accounts/default${accountPath[2] ?? ''}`) {
    case '/computeMetadata':
      return text(res, 'v1/\n');
    case '/computeMetadata/v1':
      return text(res, 'instance/\nproject/\nuniverse/\n');
    case '/computeMetadata/v1/instance':
      return recursive ? sendJson(res, 200, { serviceAccounts: { default: account } }, flavor) : text(res, 'service-accounts/\n');
    case '/computeMetadata/v1/instance/service-accounts':
      return text(res, `default/\n${identity.email}/\n`);
    case '/computeMetadata/v1/instance/service-accounts/default':
      return recursive ? sendJson(res, 200, account, flavor) : text(res, 'aliases\nemail\nscopes\ntoken\n');
    case '/computeMetadata/v1/instance/service-accounts/default/aliases':
      return text(res, 'default\n');
    case '/computeMetadata/v1/instance/service-accounts/default/email':
      return text(res, identity.email);
    case '/computeMetadata/v1/instance/service-accounts/default/scopes':
      return text(res, `${scopes.join('\n')}\n`);
    case '/computeMetadata/v1/instance/service-accounts/default/token':
      return sendJson(res, 200, { access_token: identity.token, expires_in: tokenSeconds, token_type: 'Bearer' }, flavor);
    case '/computeMetadata/v1/project':
      return text(res, 'project-id\n');
    case '/computeMetadata/v1/project/project-id':
      return text(res, identity.project);
    case '/computeMetadata/v1/universe':
      return text(res, 'universe-domain\n');
    case '/computeMetadata/v1/universe/universe-domain':
      return text(res, 'googleapis.com');
    default:
      return sendServiceError(
        res,
        new ServiceError(
          'NOT_FOUND',
          "agentgen dev's metadata server does not serve this path (it serves the project id, the default service account and its token).",
        ),
        flavor,
      );
  }
}
