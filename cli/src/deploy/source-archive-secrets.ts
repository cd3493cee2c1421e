/**
 * What a deploy from source never uploads by its path, whatever the ignore file says (even a `!`
 * line): the dependency and version-control folders, which the build makes or does not need, and
 * the files and folders that hold credentials by what they are called, editor backups of them
 * included. What a file holds is checked too (source-archive-secret-content.ts): a private key
 * named `notes.txt` is refused there. A secret belongs in Secret Manager (`deploy.secret_env`),
 * not in the build context the platform keeps.
 */
import { printableText } from '../../../terminal/printable-text.js';
import { backupOriginals } from './source-archive-backup-names.js';

/** Entry names skipped wherever they are, folder or file (`.git` is a file in a worktree or submodule). */
export const alwaysSkippedNames: ReadonlySet<string> = new Set(['node_modules', '.git']);

/** What kind of secret a refused file is: the class the output names it by. */
export type SecretClass = 'private key' | 'cloud credentials' | 'token or password file' | 'environment file' | 'Terraform variables or state';

export interface SecretFinding {
  readonly class: SecretClass;
  /** Why, in a few words: what matched (a name rule, a folder, a header), never what the file holds. */
  readonly why: string;
}

/** Folders whose every file is a credential or a key, at any depth of the project; names in lower case. */
const secretFolders: readonly { readonly path: readonly string[]; readonly finding: SecretFinding }[] = [
  { path: ['.ssh'], finding: { class: 'private key', why: "in .ssh/, SSH's keys" } },
  { path: ['.gnupg'], finding: { class: 'private key', why: "in .gnupg/, GnuPG's keyrings" } },
  { path: ['.aws'], finding: { class: 'cloud credentials', why: "in .aws/, the AWS CLI's credentials" } },
  { path: ['.config', 'gcloud'], finding: { class: 'cloud credentials', why: "in .config/gcloud/, gcloud's credentials" } },
  { path: ['legacy_credentials'], finding: { class: 'cloud credentials', why: "in legacy_credentials/, gcloud's stored credentials" } },
  { path: ['.terraform'], finding: { class: 'Terraform variables or state', why: "in .terraform/, Terraform's working state (backend settings)" } },
];

interface NameRule {
  readonly matches: (name: string, parent: string | undefined) => boolean;
  readonly finding: SecretFinding;
}

const endsWith =
  (...suffixes: string[]) =>
  (name: string) =>
    suffixes.some((suffix) => name.endsWith(suffix));
const jsonWith = (part: string) => (name: string) => name.endsWith('.json') && name.slice(0, -'.json'.length).includes(part);
const oneOf = (...names: string[]) => {
  const set = new Set(names);
  return (name: string) => set.has(name);
};

/** `.env.example`, `.env.local.sample`, `example.env`: templates, written to be committed, so packed. */
const templateWords = new Set(['example', 'sample', 'template', 'dist']);
const isTemplate = (name: string) => name.split('.').some((word) => templateWords.has(word));

/** Names compared in lower case: a `SERVER.KEY` is as secret as a `server.key`. */
const nameRules: readonly NameRule[] = [
  {
    matches: (name) => (name === '.env' || name.startsWith('.env.') || name.endsWith('.env')) && !isTemplate(name),
    finding: { class: 'environment file', why: 'an environment file (.env, .env.*, *.env): it may hold secrets; templates such as .env.example are packed' },
  },
  {
    matches: endsWith('.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.ppk'),
    finding: { class: 'private key', why: 'a private key or certificate file (*.pem, *.key, *.p12, *.pfx, *.jks, *.keystore, *.ppk)' },
  },
  {
    // id_rsa, id_ecdsa, id_ed25519_sk, id_work...: ssh-keygen's private keys have no extension; the public ones end in .pub.
    matches: (name) => name.startsWith('id_') && name.length > 3 && !name.includes('.'),
    finding: { class: 'private key', why: 'an SSH private key (id_*, not *.pub)' },
  },
  { matches: oneOf('.git-credentials'), finding: { class: 'token or password file', why: "git's stored credentials (.git-credentials)" } },
  { matches: oneOf('.netrc', '_netrc'), finding: { class: 'token or password file', why: 'a .netrc: it holds login passwords' } },
  { matches: oneOf('.pypirc'), finding: { class: 'token or password file', why: "PyPI's upload credentials (.pypirc)" } },
  { matches: oneOf('.pgpass'), finding: { class: 'token or password file', why: "PostgreSQL's password file (.pgpass)" } },
  { matches: oneOf('.vault-token'), finding: { class: 'token or password file', why: "HashiCorp Vault's token (.vault-token)" } },
  {
    matches: (name, parent) => (name === 'config.json' && parent === '.docker') || (name === 'config' && parent === '.kube'),
    finding: { class: 'token or password file', why: 'a registry or cluster login (.docker/config.json, .kube/config)' },
  },
  {
    matches: oneOf('credentials.db', 'access_tokens.db', 'application_default_credentials.json', 'adc.json'),
    finding: { class: 'cloud credentials', why: "gcloud's credential store (credentials.db, access_tokens.db, application_default_credentials.json)" },
  },
  {
    matches: (name) => jsonWith('credentials')(name) || jsonWith('service-account')(name) || jsonWith('service_account')(name) || jsonWith('-sa-key')(name),
    finding: { class: 'cloud credentials', why: 'a credentials file (*credentials*.json, *service-account*.json, *service_account*.json, *-sa-key*.json)' },
  },
  {
    matches: (name) => /\.tfvars(\.json)?$/.test(name) || /\.tfstate(\.|$)/.test(name),
    finding: { class: 'Terraform variables or state', why: 'Terraform variables or state (*.tfvars, *.tfstate*): they hold the values of secrets' },
  },
];

function byName(name: string, parent: string | undefined): SecretFinding | undefined {
  return nameRules.find((rule) => rule.matches(name, parent))?.finding;
}

/** Whether `folders` (lower case) holds `inner` as consecutive names. */
function within(folders: readonly string[], inner: readonly string[]): boolean {
  for (let start = 0; start + inner.length <= folders.length; start++) {
    if (inner.every((name, i) => folders[start + i] === name)) return true;
  }
  return false;
}

/**
 * Why the file at `path` ('/'-separated, relative to the project) is never packed, by its path
 * alone: a credential folder above it, its name, or its name once a backup's decoration is taken
 * off. Undefined when nothing in the path looks secret (its contents may still be).
 */
export function secretByPath(path: string): SecretFinding | undefined {
  const parts = path.toLowerCase().split('/');
  const name = parts.pop()!;
  const parent = parts.at(-1);
  const folder = secretFolders.find((candidate) => within(parts, candidate.path));
  if (folder !== undefined) return folder.finding;
  const direct = byName(name, parent);
  if (direct !== undefined) return direct;
  for (const original of backupOriginals(name)) {
    const finding = byName(original, parent);
    // `original` is part of the project's file name, so escaped like one: `why` is printed as it is.
    if (finding !== undefined) return { class: finding.class, why: `a backup copy of ${printableText(original)}, ${finding.why}` };
  }
  return undefined;
}

/** The file's name (lower case) and every name it may be a backup of, for the content rules that apply to one name (`.npmrc.bak` is read as an `.npmrc`). */
export function namesFor(path: string): string[] {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  return [name, ...backupOriginals(name)];
}
