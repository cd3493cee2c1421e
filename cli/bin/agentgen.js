#!/usr/bin/env node
// The CLI is written in TypeScript at the repository root and compiled into dist/ (`npm run build`).
import { main } from '../dist/generator/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
