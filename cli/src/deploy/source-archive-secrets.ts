/**
 * What a deploy from source never uploads, whatever the ignore file says (even a `!` line): the
 * dependency and version-control folders, which the build makes or does not need, and files whose
 * names say they hold secrets. A secret belongs in Secret Manager (`deploy.secret_env`), not in
 * the build context the platform keeps.
 */

/** Entry names skipped wherever they are, folder or file (`.git` is a file in a worktree or submodule). */
export const alwaysSkippedNames: ReadonlySet<string> = new Set(['node_modules', '.git']);

interface SecretRule {
  readonly matches: (name: string) => boolean;
  readonly why: string;
}

const endsWith =
  (...suffixes: string[]) =>
  (name: string) =>
    suffixes.some((suffix) => name.endsWith(suffix));
const jsonWith = (part: string) => (name: string) => name.endsWith('.json') && name.slice(0, -'.json'.length).includes(part);

/** Names compared in lower case: a `SERVER.KEY` is as secret as a `server.key`. */
const secretRules: readonly SecretRule[] = [
  {
    matches: (name) => name === '.env' || (name.startsWith('.env.') && name !== '.env.example'),
    why: 'an environment file (.env, .env.*): it may hold secrets; .env.example is packed',
  },
  { matches: endsWith('.pem', '.key', '.p12', '.pfx'), why: 'a private key or certificate file (*.pem, *.key, *.p12, *.pfx)' },
  { matches: (name) => name.startsWith('id_rsa') || name.startsWith('id_ed25519'), why: 'an SSH key (id_rsa*, id_ed25519*)' },
  { matches: (name) => name === '.npmrc', why: "npm's configuration (.npmrc): it may hold a registry token" },
  { matches: (name) => name === '.netrc', why: 'a .netrc: it holds login passwords' },
  {
    matches: (name) => jsonWith('credentials')(name) || jsonWith('service-account')(name) || jsonWith('-sa-key')(name),
    why: 'a credentials file (*credentials*.json, *service-account*.json, *-sa-key*.json)',
  },
];

/** Why a file of this name is never packed, or undefined when its name looks harmless. */
export function secretReason(name: string): string | undefined {
  const lower = name.toLowerCase();
  return secretRules.find((rule) => rule.matches(lower))?.why;
}
