/**
 * Secrets recognised by what a file holds, whatever it is called: a private key's PEM header (a
 * key saved as `notes.txt`), Google's credential JSON by its fields (a service-account key
 * downloaded as `my-project-1a2b3c.json`), AWS keys, an `.npmrc` with a registry token. Run over
 * the bytes the packer has already read to pack, with fixed strings found by Buffer.indexOf and
 * regular expressions without nested repetition, so the cost is linear in the bytes packed, which
 * the archive's limit bounds (contract/source-archive-limits.ts). Only the finding is returned, never
 * what matched: no caller prints a secret's content.
 */
import { namesFor, type SecretFinding } from './source-archive-secrets.js';

/** `-----BEGIN RSA PRIVATE KEY-----`, `OPENSSH`, `EC`, `DSA`, `ENCRYPTED`, PKCS #8's bare one, and `PGP PRIVATE KEY BLOCK`. */
const pemPrivateKey = /^-----BEGIN (?:[A-Z0-9]{1,16} ){0,3}PRIVATE KEY(?: BLOCK)?-----/;
/** Longest header the expression above can match, and then some: how much follows each `-----BEGIN ` to look at. */
const pemHeaderWindow = 96;
/** Other private key formats' first line: SSH.com's and PuTTY's. */
const otherKeyMarkers = ['---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----', 'PuTTY-User-Key-File-'];

function holdsPrivateKey(data: Buffer): boolean {
  for (let at = data.indexOf('-----BEGIN '); at >= 0; at = data.indexOf('-----BEGIN ', at + 1)) {
    if (pemPrivateKey.test(data.toString('latin1', at, at + pemHeaderWindow))) return true;
  }
  return otherKeyMarkers.some((marker) => data.includes(marker));
}

/**
 * Google's credential files by their `type` (google-auth-library's and gcloud's), each with the
 * field that makes it a credential: a service account's key, a user's refresh token; an external
 * account's or an impersonation's file is a credential configuration as it is.
 */
const googleCredentialTypes: Readonly<Record<string, RegExp | undefined>> = {
  service_account: /"private_key"\s*:/,
  authorized_user: /"refresh_token"\s*:/,
  external_account: undefined,
  external_account_authorized_user: undefined,
  impersonated_service_account: undefined,
  gdch_service_account: undefined,
};

function googleCredentialType(data: Buffer): string | undefined {
  if (!data.includes('"type"')) return undefined;
  const text = data.toString('latin1');
  for (const match of text.matchAll(/"type"\s*:\s*"([a-z_]{1,40})"/g)) {
    const type = match[1]!;
    if (!Object.hasOwn(googleCredentialTypes, type)) continue;
    const companion = googleCredentialTypes[type];
    if (companion === undefined || companion.test(text)) return type;
  }
  return undefined;
}

function holdsAwsSecretKey(data: Buffer): boolean {
  return data.includes('aws_secret_access_key') && /aws_secret_access_key\s*[=:]\s*\S/.test(data.toString('latin1'));
}

/**
 * `_authToken=`, `_auth=`, `_password=` lines of an .npmrc, bare or for a registry
 * (`//host/:_authToken=`). Tried at line starts only, nothing in it crosses a line, and the value
 * is trimmed in code: no run of the expression goes back further than its own line.
 */
const npmAuthLine = /^[ \t]*(?:\S*:)?_(?:authToken|auth|password)[ \t]*=([^\r\n]*)/gm;
/** `${NPM_TOKEN}`: npm fills it in from the environment, so the file holds a name, not a token. */
const environmentReference = /^(["']?)\$\{[A-Za-z_][A-Za-z0-9_]*\}\1$/;

function npmrcHoldsToken(data: Buffer): boolean {
  for (const match of data.toString('utf8').matchAll(npmAuthLine)) {
    const value = match[1]!.trim();
    if (value !== '' && !environmentReference.test(value)) return true;
  }
  return false;
}

/** Why the file at `path` holding `data` is never packed, by what it holds; undefined when nothing in it looks secret. */
export function secretInContent(path: string, data: Buffer): SecretFinding | undefined {
  if (holdsPrivateKey(data)) return { class: 'private key', why: 'holds a private key (a PEM "BEGIN … PRIVATE KEY" line or another key format)' };
  const google = googleCredentialType(data);
  if (google !== undefined) return { class: 'cloud credentials', why: `a Google credential file ("type": "${google}")` };
  if (holdsAwsSecretKey(data)) return { class: 'cloud credentials', why: 'holds an AWS secret access key (aws_secret_access_key)' };
  if (namesFor(path).includes('.npmrc') && npmrcHoldsToken(data)) {
    return { class: 'token or password file', why: 'an .npmrc with a registry token or password (a ${VAR} reference is packed)' };
  }
  return undefined;
}
