// The module hook record-loads.mjs registers: each load's URL goes to $LOADS_FILE before it loads.
import { appendFileSync } from 'node:fs';

export async function load(url, context, next) {
  appendFileSync(process.env.LOADS_FILE, `${url}\n`);
  return next(url, context);
}
