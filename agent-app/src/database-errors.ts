/**
 * A session database's failures, without the caller's data. MikroORM's `DriverException` carries
 * the whole statement with its parameters in `message` (`insert into "sessions" (…) values (…,
 * '{"api_key":"sk-…"}') - unsupported Unicode escape sequence`), and copies the driver's fields
 * (`detail`: `Key (id, app_name, user_id)=(…) already exists`, `where`, …): whatever logs a 500
 * with its error (the generated server does, stack included) would write the caller's state, ids
 * and messages. The error that leaves the session service instead says which operation failed,
 * the exception's class, the driver's code (PostgreSQL's SQLSTATE, MySQL's) and the table, and
 * keeps the original's stack frames (code locations only), so the failure can still be traced.
 */

export class SessionDatabaseError extends Error {
  override readonly name = 'SessionDatabaseError';

  constructor(
    /** The session service method: `createSession`, `appendEvent`, … */
    readonly operation: string,
    /** The class of the driver's exception, e.g. `UniqueConstraintViolationException`. */
    readonly exception: string,
    /** The driver's error code, e.g. SQLSTATE `23505`; undefined when it gave none. */
    readonly code: string | undefined,
    /** The table the statement was on, when the driver says (a name of ADK's schema, not data). */
    readonly table: string | undefined,
    frames: string,
  ) {
    const where = `${code === undefined ? '' : `, code ${code}`}${table === undefined ? '' : `, table ${table}`}`;
    super(`the session database failed in ${operation}: ${exception}${where}`);
    if (frames !== '') this.stack = `${this.stack ?? this.message}\n    -- from the driver:\n${frames}`;
  }
}

/** A short token from the error, or undefined: what is kept must be a code or a class name, never text. */
function token(value: unknown): string | undefined {
  return (typeof value === 'string' || typeof value === 'number') && /^[A-Za-z0-9_]{1,64}$/.test(String(value)) ? String(value) : undefined;
}

/** `error` as a SessionDatabaseError that holds none of its text. */
export function redactDatabaseError(error: unknown, operation: string): SessionDatabaseError {
  const { name, code, sqlState, table, stack } = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const frames =
    typeof stack === 'string'
      ? stack
          .split('\n')
          .filter((line) => /^\s+at /.test(line))
          .join('\n')
      : '';
  return new SessionDatabaseError(operation, token(name) ?? 'Error', token(sqlState) ?? token(code), token(table), frames);
}

/** Runs one session database call; a failure leaves it redacted. */
export async function redacted<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw redactDatabaseError(error, operation);
  }
}
