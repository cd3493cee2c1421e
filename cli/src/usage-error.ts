/** A command line `agentgen` cannot run: `main` prints it with a pointer to `--help`, exit 2. */
export class UsageError extends Error {}
