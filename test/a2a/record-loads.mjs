// `node --import ./record-loads.mjs …`: every module the process loads is appended, one URL a line,
// to $LOADS_FILE (a module hook, run in Node's hooks thread: it writes the file itself).
import { register } from 'node:module';

register('./record-loads-hooks.mjs', import.meta.url);
