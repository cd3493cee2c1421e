/**
 * What a scaffolded project is made from: its name (user input, checked here), its template and
 * its package manager; and the names derived from the project name for each place it goes.
 */
import { builtinModules } from 'node:module';

export const templateNames = ['adk', 'custom'] as const;
export type TemplateName = (typeof templateNames)[number];

/** What each template is, as the prompt and `--help` show it. */
export const templateDescriptions: Readonly<Record<TemplateName, string>> = {
  adk: 'an ADK agent with one tool, over AgentApp and the standard surface',
  custom: 'custom operations with typed handlers, no ADK',
};

/**
 * npm only, for now: the Dockerfile and the CI workflow install from package-lock.json
 * (`npm ci`), so another manager would need its own versions of both.
 */
export const packageManagers = ['npm'] as const;
export type PackageManager = (typeof packageManagers)[number];

export interface ProjectOptions {
  readonly name: string;
  readonly template: TemplateName;
  readonly packageManager: PackageManager;
}

/** npm's rules for a new package name (those of validate-npm-package-name without its legacy allowances). */
const packageNamePattern = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** Why `name` cannot name an npm package, or undefined when it can. */
export function packageNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'it is empty';
  if (name.length > 214) return 'it is longer than 214 characters';
  if (name !== name.trim()) return 'it starts or ends with a space';
  if (name.toLowerCase() !== name) return 'it has capital letters';
  if (/^[._]/.test(name)) return 'it starts with "." or "_"';
  if (!packageNamePattern.test(name)) return 'it may hold only lowercase letters, digits and - . _ ~ (and one @scope/ in front)';
  if (name === 'node_modules' || name === 'favicon.ico') return `"${name}" is reserved`;
  if (builtinModules.includes(name)) return `"${name}" is a Node.js built-in module`;
  return undefined;
}

/** The package name without its scope: `@team/my-agent` → `my-agent`. */
export function unscopedName(name: string): string {
  return name.slice(name.indexOf('/') + 1);
}

/** An identifier for the ADK agent (ADK requires one): `my-agent` → `my_agent`, `2d` → `agent_2d`. */
export function agentIdentifier(name: string): string {
  const words = unscopedName(name)
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[A-Za-z]/.test(words) ? words : `agent_${words}`;
}

/** The image's repository name: the unscoped name, which is already lowercase; any character a Docker name refuses (`~`) becomes `-`. */
export function imageName(name: string): string {
  return unscopedName(name).replace(/[^a-z0-9._-]/g, '-');
}

/** The image the deploy section names, in Artifact Registry. */
export function imageUri(name: string): string {
  return `us-central1-docker.pkg.dev/\${GOOGLE_CLOUD_PROJECT_ID}/agents/${imageName(name)}:\${IMAGE_TAG}`;
}
