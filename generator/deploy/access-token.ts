/**
 * Where `agentgen deploy` gets its bearer token. In production: Application Default Credentials
 * through google-auth-library (loaded only when a deploy really calls the API). For CI systems that
 * mint a token themselves, and for tests against a local fake, `--access-token-env NAME` reads it
 * from an environment variable instead. The token is only ever put in an Authorization header:
 * never printed, logged or written into an error.
 */

export type TokenSource = () => Promise<string>;

const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform';

export function tokenFromEnvironment(name: string, env: Readonly<Record<string, string | undefined>>): TokenSource {
  return async () => {
    const token = env[name];
    if (token === undefined || token === '') throw new Error(`--access-token-env ${name}: the environment variable ${name} is not set`);
    return token;
  };
}

export function applicationDefaultToken(): TokenSource {
  let auth: Promise<{ getAccessToken(): Promise<string | null | undefined> }> | undefined;
  return async () => {
    auth ??= import('google-auth-library').then(({ GoogleAuth }) => new GoogleAuth({ scopes: [cloudPlatformScope] }));
    let token: string | null | undefined;
    try {
      token = await (await auth).getAccessToken();
    } catch (error) {
      // google-auth-library's messages name the file or the metadata server, never a secret.
      throw new Error(`no Application Default Credentials: ${(error as Error).message.split('\n')[0]}. Run \`gcloud auth application-default login\`, or set GOOGLE_APPLICATION_CREDENTIALS.`);
    }
    if (!token) throw new Error('Application Default Credentials gave no access token');
    return token;
  };
}
