/**
 * Where `agentgen deploy` gets its bearer token. In production: Application Default Credentials
 * through google-auth-library (loaded only when a deploy really calls the API). For CI systems that
 * mint a token themselves, and for tests against a local fake, `--access-token-env NAME` reads it
 * from an environment variable instead. Either way the token is checked before any request (see
 * `checkedToken`) and handed to the verb's `Redactor`: it is only ever put in an Authorization
 * header, and never printed, even when an API or a library echoes it.
 */
import { bearerTokenCharacters, minimumSecretLength, type Redactor } from './redact.js';
import { withoutMetadataLookupWarning } from './without-metadata-warning.js';

export type TokenSource = () => Promise<string>;

const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform';

const bearerToken = new RegExp(`^[${bearerTokenCharacters}]+=*$`);

/**
 * `--access-token-env NAME` when given, else Application Default Credentials; every token either
 * gives is hidden by `redactor` and checked.
 */
export function tokenSource(envName: string | undefined, env: Readonly<Record<string, string | undefined>>, redactor: Redactor): TokenSource {
  const source = envName === undefined ? applicationDefaultToken() : tokenFromEnvironment(envName, env);
  const origin = envName === undefined ? 'Application Default Credentials' : `--access-token-env ${envName}`;
  return async () => {
    const token = await source();
    redactor.hide(token);
    return checkedToken(token, origin);
  };
}

/** What makes a value no bearer token, in the order they are reported. */
const tokenProblems: readonly (readonly [(token: string) => boolean, string])[] = [
  [(token) => token === '', 'is empty but for a line ending'],
  [(token) => /[\x00-\x1f\x7f]/.test(token), 'holds a control character (CR, LF, NUL, …) inside it'],
  [(token) => /\s/.test(token), 'holds whitespace'],
  [(token) => !bearerToken.test(token), 'holds a character a bearer token cannot (RFC 6750: letters, digits, -._~+/ and = at the end)'],
  [(token) => token.length < minimumSecretLength, `is shorter than ${minimumSecretLength} characters`],
];

/**
 * The token without a trailing line ending (`gcloud auth print-access-token > file` writes one; a
 * file saved on Windows ends in CRLF), or an error naming `origin`, never the value, when it cannot
 * be a bearer token: a control character (CR, LF, NUL, …) or whitespace inside it would make an
 * invalid header, whose error message quotes the header. Refused before any request.
 */
export function checkedToken(value: string, origin: string): string {
  const token = value.replace(/[\r\n]+$/, '');
  const problem = tokenProblems.find(([test]) => test(token))?.[1];
  if (problem !== undefined) throw new Error(`${origin}: the access token ${problem}; refused before any request (the value is not shown)`);
  return token;
}

function tokenFromEnvironment(name: string, env: Readonly<Record<string, string | undefined>>): TokenSource {
  return async () => {
    const token = env[name];
    if (token === undefined || token === '') throw new Error(`--access-token-env ${name}: the environment variable ${name} is not set`);
    return token;
  };
}

function applicationDefaultToken(): TokenSource {
  let auth: Promise<{ getAccessToken(): Promise<string | null | undefined> }> | undefined;
  return async () => {
    auth ??= import('google-auth-library').then(({ GoogleAuth }) => new GoogleAuth({ scopes: [cloudPlatformScope] }));
    let token: string | null | undefined;
    try {
      const client = await auth;
      token = await withoutMetadataLookupWarning(() => client.getAccessToken());
    } catch (error) {
      // google-auth-library's messages name the file or the metadata server, never a secret.
      const reason = (error as Error).message.split('\n')[0]!.replace(/\.+$/, '');
      throw new Error(`no Application Default Credentials: ${reason}. Run \`gcloud auth application-default login\`, or set GOOGLE_APPLICATION_CREDENTIALS.`);
    }
    if (!token) throw new Error('Application Default Credentials gave no access token');
    return token;
  };
}
