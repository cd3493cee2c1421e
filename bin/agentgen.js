#!/usr/bin/env node
// The CLI is written in TypeScript and compiled to dist/ by `npm run build` (run by `npm ci` via `prepare`).
import { main } from '../dist/generator/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
