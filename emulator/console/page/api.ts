/**
 * The console's client of the public API, and nothing else: `GET /v1/{resource}`, `:query` and
 * `:streamQuery?alt=sse`, same origin, with the bearer token. A stream is read with fetch and a
 * ReadableStream (EventSource cannot POST) and stopped with an AbortController.
 */

export interface Operation {
  readonly name: string;
  readonly api_mode: string;
  readonly description?: string;
  readonly parameters?: Schema;
}

/** The JSON Schema subset classMethods use (OpenAPI 3.0 style, `nullable`). */
export interface Schema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly items?: Schema;
  readonly enum?: readonly unknown[];
  readonly anyOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
  readonly nullable?: boolean;
  readonly description?: string;
  readonly default?: unknown;
  readonly additionalProperties?: boolean | Schema;
  // What the form shows beside a field (schema-hints.ts); the container checks them.
  readonly pattern?: string;
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  /** A number (JSON Schema), or true to make `minimum` exclusive (OpenAPI 3.0). */
  readonly exclusiveMinimum?: number | boolean;
  readonly exclusiveMaximum?: number | boolean;
  readonly multipleOf?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly minProperties?: number;
  readonly maxProperties?: number;
}

/** A `google.rpc.Status` answer, or an `{"error"}` line of a stream, or a failure to reach the API. */
export class ConsoleApiError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}

export const streamModes: ReadonlySet<string> = new Set(['stream', 'async_stream']);

export class Api {
  constructor(
    readonly resource: string,
    public token: string,
  ) {}

  #headers(): Record<string, string> {
    return { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' };
  }

  get #base(): string {
    return `/v1/${this.resource}`;
  }

  async operations(): Promise<Operation[]> {
    const res = await fetch(this.#base, { headers: { authorization: `Bearer ${this.token}` } });
    const body = await readJson(res);
    const methods = (body as { spec?: { classMethods?: unknown } }).spec?.classMethods;
    if (!Array.isArray(methods)) throw new ConsoleApiError('The resource has no spec.classMethods', res.status, body);
    return methods as Operation[];
  }

  /** `:query`: the `output`, or a ConsoleApiError. */
  async query(method: string, input: object, signal?: AbortSignal): Promise<unknown> {
    const res = await fetch(`${this.#base}:query`, { method: 'POST', headers: this.#headers(), body: JSON.stringify({ classMethod: method, input }), signal });
    return ((await readJson(res)) as { output?: unknown }).output ?? null;
  }

  /**
   * `:streamQuery?alt=sse`: calls `onLine` with each decoded line as it arrives (a `data:` prefix
   * stripped, blank lines skipped, partial lines kept across chunks). An error answer before the
   * stream starts is thrown; an `{"error"}` line is passed on like any other.
   */
  async stream(method: string, input: object, signal: AbortSignal, onLine: (value: unknown) => void): Promise<void> {
    const res = await fetch(`${this.#base}:streamQuery?alt=sse`, {
      method: 'POST',
      headers: this.#headers(),
      body: JSON.stringify({ classMethod: method, input }),
      signal,
    });
    if (!res.ok || res.body === null) {
      await readJson(res);
      throw new ConsoleApiError(`HTTP ${res.status} without a body`, res.status, null);
    }
    await readLines(res.body, (line) => {
      const text = line.startsWith('data:') ? line.slice(5).trim() : line.trim();
      if (text === '') return;
      try {
        onLine(JSON.parse(text));
      } catch {
        onLine({ error: { message: `Not JSON: ${text}` } });
      }
    });
  }
}

/** Calls `onLine` with each line of a streamed body as it arrives, partial lines kept across chunks. */
export async function readLines(body: NonNullable<Response['body']>, onLine: (line: string) => void): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pending += value;
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      onLine(pending.slice(0, end));
      pending = pending.slice(end + 1);
    }
  }
  onLine(pending);
}

/** The JSON body of an answer; a non-2xx answer (a Status body) is thrown as ConsoleApiError. */
async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: kept as text, and reported below when the answer is not 2xx
  }
  if (!res.ok) {
    const error = (body as { error?: { status?: string; message?: string } } | null)?.error;
    const message = error === undefined ? `HTTP ${res.status}: ${String(text).slice(0, 500)}` : `${error.status ?? res.status}: ${error.message ?? ''}`;
    throw new ConsoleApiError(message, res.status, body);
  }
  return body;
}
