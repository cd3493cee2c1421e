/**
 * Code-generation API, version 1, patterns: what a generated `validators.ts` imports when its spec
 * has a `pattern` (see `codegenv1/server.ts` for the promise this entry keeps). Matching runs on
 * a linear-time engine, re2js, an optional peer dependency of this package that only this entry
 * loads: a spec with a `pattern` needs `npm i re2js` beside the runtime. No `node:` imports.
 */
export { compilePattern, matchesPattern, PatternRefusedError, type PatternTest, patternProblem } from '../pattern/index.js';
