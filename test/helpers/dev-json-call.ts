/**
 * One JSON call of agentgen dev's REST API, as the tests of its control plane and engine services
 * make it: the bearer token, a JSON body (a string is sent as written: a deep or hand-written
 * body), and the answer's status with its JSON (an empty answer reads as `{}`).
 */
export interface JsonAnswer {
  readonly status: number;
  readonly body: Record<string, any>;
}

export async function devJsonCall(base: string, method: string, path: string, body?: unknown, token = 't'): Promise<JsonAnswer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, any>) };
}
