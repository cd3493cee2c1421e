/**
 * `init`: a starter spec (`agentgen init`), or a whole project (`agentgen init --template NAME
 * [dir]`, which `npm create agentgen` runs). Neither overwrites anything without --force.
 */
import { spawn } from 'node:child_process';
import { access, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve as resolvePath } from 'node:path';
import { defaultSpecFile, starterSpec } from '../../generator/index.js';
import type { Io } from './io.js';
import {
  type PackageManager,
  packageManagers,
  packageNameProblem,
  type TemplateName,
  templateDescriptions,
  templateNames,
} from './scaffold/project-options.js';
import { type Asker, isInteractive, terminalAsker } from './scaffold/prompts.js';
import { UsageError } from './usage-error.js';
import { type PlainVerb, plainVerb } from './verb.js';

interface Options {
  readonly force: boolean;
  readonly name?: string;
  readonly template?: TemplateName;
  readonly yes: boolean;
  readonly 'package-manager'?: PackageManager;
  readonly install: boolean;
}

export interface InitArgs extends Options {
  /** The project folder (a positional argument); given, or with --template, init writes a whole project. */
  readonly dir?: string;
}

/** Where a person may answer questions; undefined when nobody can (no TTY, or a test). */
export type Terminal = () => Asker | undefined;

const processTerminal: Terminal = () => (isInteractive(process.stdin, process.stdout) ? terminalAsker(process.stdin, process.stdout) : undefined);

export async function initCommand(args: InitArgs, io: Io, terminal: Terminal = processTerminal): Promise<number> {
  if (args.template !== undefined || args.dir !== undefined) return initProject(args, io, args.yes ? undefined : terminal());
  const projectOnly = [args.yes && '--yes', args['package-manager'] !== undefined && '--package-manager', !args.install && '--no-install'].filter(Boolean);
  if (projectOnly.length > 0) throw new UsageError(`${projectOnly.join(', ')}: only for a whole project; add --template adk|custom or a folder`);
  return initSpec(args, io);
}

async function initSpec(args: Options, io: Io): Promise<number> {
  const target = join(io.cwd, defaultSpecFile);
  const exists = await access(target).then(
    () => true,
    () => false,
  );
  if (exists && !args.force) {
    io.stderr(`agentgen: ${defaultSpecFile} already exists; use --force to overwrite it.\n`);
    return 1;
  }
  const text = await starterSpec(args.name ?? (basename(io.cwd) || 'agent'));
  await writeFile(target, text, 'utf8');
  io.stdout(`wrote ${defaultSpecFile}; next: agentgen generate\n`);
  return 0;
}

/**
 * Defaults, when nobody is asked (no TTY, or --yes): the folder's name as the package name (an
 * error when it cannot be one: then --name is needed), the adk template, npm.
 */
async function initProject(args: InitArgs, io: Io, asker: Asker | undefined): Promise<number> {
  const dir = resolvePath(io.cwd, args.dir ?? '.');
  const shown = relative(io.cwd, dir) || '.';
  const { occupyingEntries, writeProject } = await import('./scaffold/write-project.js');
  const occupied = await occupyingEntries(dir);
  if (occupied.length > 0 && !args.force) {
    const listed = occupied.slice(0, 5).join(', ') + (occupied.length > 5 ? ', ...' : '');
    io.stderr(`agentgen: ${shown} is not empty (${listed}); choose an empty or new folder, or use --force to write over files of the same names.\n`);
    return 1;
  }
  if (args.name !== undefined) checkName(args.name, '--name');
  let name = args.name;
  let template = args.template;
  try {
    const folderName = basename(dir);
    const suggested = packageNameProblem(folderName) === undefined ? folderName : 'my-agent';
    if (name === undefined && asker !== undefined) name = await asker.ask('Project name', suggested, (answer) => problemWith(answer));
    if (template === undefined && asker !== undefined) {
      const choices = templateNames.map((t) => `${t}: ${templateDescriptions[t]}`).join('; ');
      template = (await asker.ask(`Template (${choices})`, 'adk', (answer) =>
        (templateNames as readonly string[]).includes(answer) ? undefined : `one of ${templateNames.join(', ')}`,
      )) as TemplateName;
    }
  } finally {
    asker?.close();
  }
  if (name === undefined) name = checkName(basename(dir), 'the folder name', '; pass --name NAME');
  template ??= 'adk';
  const packageManager = args['package-manager'] ?? 'npm';

  const { scaffoldProject } = await import('./scaffold/scaffold-project.js');
  const files = await scaffoldProject({ name, template, packageManager });
  await writeProject(dir, files);
  io.stdout(`created ${shown}: ${name}, ${template} template (${files.length} files)\n`);
  if (args.install) {
    io.stdout(`installing dependencies (${packageManager} install) ...\n`);
    const code = await install(packageManager, dir);
    if (code !== 0) {
      io.stderr(`agentgen: ${packageManager} install failed (exit ${code}) in ${shown}; the project is written: fix the cause and run it again there.\n`);
      return 1;
    }
  }
  const cd = shown === '.' ? [] : [`cd ${shown}`];
  const steps = [...cd, ...(args.install ? [] : [`${packageManager} install`]), `${packageManager} test`, `${packageManager} run dev`];
  io.stdout(`next:\n${steps.map((step) => `  ${step}\n`).join('')}`);
  return 0;
}

function problemWith(name: string): string | undefined {
  const problem = packageNameProblem(name);
  return problem === undefined ? undefined : `not a valid npm package name: ${problem}`;
}

function checkName(name: string, what: string, hint = ''): string {
  const problem = packageNameProblem(name);
  if (problem !== undefined) throw new UsageError(`${what} ${JSON.stringify(name)} is not a valid npm package name: ${problem}${hint}`);
  return name;
}

/** The package manager's install in the new project, its output shown as it runs. */
function install(packageManager: PackageManager, dir: string): Promise<number> {
  return new Promise((resolvePromise) => {
    const child = spawn(packageManager, ['install', '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: ['ignore', 'inherit', 'inherit'],
      shell: process.platform === 'win32',
    });
    child.once('error', () => resolvePromise(127));
    child.once('exit', (code) => resolvePromise(code ?? 1));
  });
}

const options = {
  force: { type: 'boolean', default: false, describe: 'Overwrite an existing spec; with a project, write into a folder that is not empty.' },
  name: { type: 'string', describe: 'Agent name; for a project, its npm package name (default: the folder name).' },
  template: {
    type: 'string',
    choices: templateNames,
    describe: `Write a whole project from a template: ${templateNames.map((t) => `${t} (${templateDescriptions[t]})`).join(', ')}.`,
  },
  yes: { type: 'boolean', default: false, describe: 'Project: ask nothing, take the defaults (never asked without a terminal anyway).' },
  'package-manager': { type: 'string', choices: packageManagers, describe: 'Project: the package manager its scripts, Dockerfile and CI use.' },
  install: { type: 'boolean', default: true, describe: 'Project: install its dependencies once written (--no-install to skip).' },
} as const;

const plain = plainVerb<Options>(options, (args, io) => initCommand(args, io));

/** A plain verb (its options parse without yargs) that registers itself for the `[dir]` positional. */
export const initVerb: PlainVerb = {
  ...plain,
  register: (parser, run, describe) =>
    parser.command(
      'init [dir]',
      describe,
      (y) => {
        y.positional('dir', { type: 'string', describe: 'Write a whole project into this folder (new or empty).' });
        for (const [option, spec] of Object.entries(options)) y.option(option, spec);
        return y;
      },
      (argv) => run(initCommand)(argv as unknown as InitArgs),
    ),
};
