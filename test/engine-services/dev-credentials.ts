/**
 * Points Google's auth library of this test process at dev's metadata server, as
 * `agentgen dev --command` does for a container (`GCE_METADATA_HOST`), and hides every real
 * credential it could find first (GOOGLE_APPLICATION_CREDENTIALS, gcloud's well-known ADC file, API
 * keys), so a passing test proves the token came from dev. Call it before a client is built.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function useDevMetadataServer(emulatorUrl: string, project: string): void {
  const empty = mkdtempSync(join(tmpdir(), 'agentgen-no-credentials-'));
  for (const name of [
    'GOOGLE_APPLICATION_CREDENTIALS',
    'GOOGLE_API_KEY',
    'GEMINI_API_KEY',
    'GOOGLE_CLOUD_API_KEY',
    'GCE_METADATA_IP',
    'METADATA_SERVER_DETECTION',
  ]) {
    delete process.env[name];
  }
  process.env['CLOUDSDK_CONFIG'] = empty; // where gcloud's application_default_credentials.json would be
  process.env['HOME'] = empty;
  process.env['GCE_METADATA_HOST'] = new URL(emulatorUrl).host;
  // As dev injects it into a container: without it google-auth-library asks the gcloud CLI for the
  // project (seconds of start-up per client) before it asks the metadata server.
  process.env['GOOGLE_CLOUD_PROJECT'] = project;
}
