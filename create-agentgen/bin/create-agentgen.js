#!/usr/bin/env node
// `npm create agentgen [dir] -- [options]`: runs `agentgen init --template ... <dir>` of the
// @agentgen/cli this package depends on (the same version), which writes the project. The folder
// is the one thing decided here: the first argument that is not an option, else (in a terminal)
// asked for, else --name, else my-agent.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline/promises';

/** The options of `agentgen init` that take a value, so their values are not taken for the folder. */
const valued = new Set(['--template', '--name', '--package-manager']);

function findFolder(argv) {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--') return undefined;
    if (valued.has(token)) i++;
    else if (!token.startsWith('-')) return i;
  }
  return undefined;
}

function optionValue(argv, name) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    if (argv[i].startsWith(`${name}=`)) return argv[i].slice(name.length + 1);
  }
  return undefined;
}

const argv = process.argv.slice(2);
let args = argv;
if (findFolder(argv) === undefined) {
  const fallback = optionValue(argv, '--name')?.replace(/^@[^/]*\//, '') || 'my-agent';
  let folder = fallback;
  if (process.stdin.isTTY && process.stdout.isTTY && !argv.includes('--yes')) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    folder = (await rl.question(`Project folder (${fallback}): `)).trim() || fallback;
    rl.close();
  }
  args = [folder, ...argv];
}

const cli = join(dirname(createRequire(import.meta.url).resolve('@agentgen/cli/package.json')), 'bin', 'agentgen.js');
const child = spawn(process.execPath, [cli, 'init', ...args], { stdio: 'inherit' });
child.once('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
