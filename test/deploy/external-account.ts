/**
 * An `external_account` credentials file (workload identity federation, as CI systems use it) whose
 * STS token endpoint is a local fake: Application Default Credentials as google-auth-library
 * reads them, with no real Google endpoint and no machine credentials involved.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes the file and its subject token into `dir`; returns the environment that points ADC at it. */
export function externalAccountEnv(dir: string, tokenUrl: string): Record<string, string> {
  writeFileSync(join(dir, 'subject-token.txt'), 'subject-token-from-the-ci-provider');
  writeFileSync(
    join(dir, 'adc.json'),
    JSON.stringify({
      type: 'external_account',
      audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/ci/providers/test',
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: tokenUrl,
      credential_source: { file: join(dir, 'subject-token.txt') },
    }),
  );
  // GOOGLE_CLOUD_PROJECT spares google-auth-library a project lookup on the real network.
  return { GOOGLE_APPLICATION_CREDENTIALS: join(dir, 'adc.json'), GOOGLE_CLOUD_PROJECT: 'my-project' };
}
