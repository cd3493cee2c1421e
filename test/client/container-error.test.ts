/**
 * `AgentApiError.container`: the container's own `{code, status, message}`, read from the
 * platform's FAILED_PRECONDITION message (`Reasoning Engine Execution failed. … Error Details:
 * <the container's body>`). The message is untrusted text: reading it never throws, and anything
 * but the platform's form leaves the field undefined.
 *
 * The platform's form, as found in public reports of its answers:
 * - keefmoon/agent-engine-bug-minimal-example, README.md: gRPC FAILED_PRECONDITION, details
 *   "Reasoning Engine Execution failed.\nPlease refer to our documentation
 *   (https://cloud.google.com/vertex-ai/generative-ai/docs/agent-engine/troubleshooting/use) for
 *   checking logs and other troubleshooting tips.\nError Details: Service Unavailable";
 * - googleapis/python-aiplatform issue #4022: "Reasoning Engine Execution failed. Error Details:
 *   {"detail":"Traceback ..."}" (a FastAPI body after the marker);
 * - a REST answer (400 FAILED_PRECONDITION) quoting an AdkApp's `{"detail": "... Exception: 404
 *   NOT_FOUND. {'error': {'code': 404, 'message': 'Session ... not found.', 'status': 'NOT_FOUND'}}
 *   ..."}`, reproduced below as `adkAnswer`.
 */

import { AgentApiError, errorFromResponse } from '@agentgen/runtime/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const prefix =
  'Reasoning Engine Execution failed.\nPlease refer to our documentation ' +
  '(https://cloud.google.com/vertex-ai/generative-ai/docs/agent-engine/troubleshooting/use) ' +
  'for checking logs and other troubleshooting tips.\nError Details: ';

const answer = (details: string): string =>
  JSON.stringify({ error: { code: 400, message: `${prefix}${details}`, status: 'FAILED_PRECONDITION', details: [] } });

/** The platform's answer for an AdkApp whose session was not found (ids shortened). */
const adkAnswer = answer(
  JSON.stringify({
    detail:
      "Agent Engine Error: An error occurred during invocation. Exception: 404 NOT_FOUND. {'error': {'code': 404, 'message': " +
      "'Session projects/p/locations/us-central1/reasoningEngines/37/sessions/71 not found.', 'status': 'NOT_FOUND'}}\n" +
      "Request Data: {'session_id': '71', 'user_id': 'u_12345_non_existing'}",
  }),
);

describe('AgentApiError.container', () => {
  it("reads an agentgen container's error body after Error Details", () => {
    const error = errorFromResponse(400, 'Bad Request', answer('{"error":{"code":404,"message":"Session s1 not found","status":"NOT_FOUND"}}'));
    expect([error.httpStatus, error.status]).toEqual([400, 'FAILED_PRECONDITION']);
    expect(error.container).toEqual({ code: 404, status: 'NOT_FOUND', message: 'Session s1 not found' });
  });

  it("reads the status an ADK agent's exception quotes, as the platform answers it", () => {
    expect(errorFromResponse(400, 'Bad Request', adkAnswer).container).toEqual({
      code: 404,
      status: 'NOT_FOUND',
      message: 'Session projects/p/locations/us-central1/reasoningEngines/37/sessions/71 not found.',
    });
  });

  it('fills a missing status from the code, and a missing code from the status', () => {
    expect(errorFromResponse(400, '', answer('{"error":{"code":409,"message":"busy"}}')).container).toEqual({ code: 409, status: 'ABORTED', message: 'busy' });
    expect(errorFromResponse(400, '', answer('{"error":{"status":"NOT_FOUND"}}')).container).toEqual({ code: 404, status: 'NOT_FOUND', message: '' });
  });

  it.each([
    ['details that are not JSON', answer('Service Unavailable')],
    ['empty details', answer('')],
    ['a body cut short by the emulator', answer('{"error":{"code":404,"status":"NOT_FOUND","message":"xx… (9000 characters)')],
    ['an error without a status or a known code', answer('{"error":{"code":"404","status":"not found"}}')],
    ['an error that is a string', answer('{"error":"late failure"}')],
    ['a detail with no quoted error', answer('{"detail":"Traceback (most recent call last): KeyError"}')],
    ['a JSON array', answer('[1,2]')],
    [
      'no Error Details marker',
      JSON.stringify({ error: { code: 400, status: 'FAILED_PRECONDITION', message: 'Reasoning Engine Execution failed. {"error":{"status":"NOT_FOUND"}}' } }),
    ],
    [
      'a message that does not start with the form',
      JSON.stringify({ error: { code: 400, status: 'FAILED_PRECONDITION', message: `Note: ${prefix}{"error":{"status":"NOT_FOUND"}}` } }),
    ],
    ['a plain error', JSON.stringify({ error: { code: 404, status: 'NOT_FOUND', message: 'Method "x" is not declared' } })],
    ['a body that is not a Status', '<html>502 Bad Gateway</html>'],
  ])('is undefined for %s', (_, body) => {
    expect(errorFromResponse(400, 'Bad Request', body).container).toBeUndefined();
  });

  it('never throws, and gives a well-formed status or undefined, whatever follows the marker', () => {
    const deep = `${'{"error":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    for (const details of [deep, '{'.repeat(100_000), `{"detail":"${"{'error': {'code': 404, 'message': '".repeat(5_000)}"}`]) {
      expect(() => new AgentApiError({ httpStatus: 400, code: 400, status: 'FAILED_PRECONDITION', message: `${prefix}${details}` })).not.toThrow();
    }
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ error: v })),
        ),
        (details) => {
          const container = new AgentApiError({ httpStatus: 400, code: 400, status: 'FAILED_PRECONDITION', message: `${prefix}${details}` }).container;
          if (container === undefined) return true;
          return Number.isInteger(container.code) && /^[A-Z][A-Z_]+$/.test(container.status) && typeof container.message === 'string';
        },
      ),
      { seed: 17, numRuns: 500 },
    );
  });

  it('takes an explicit container over the message', () => {
    const container = { code: 404, status: 'NOT_FOUND', message: 'given' };
    expect(new AgentApiError({ httpStatus: 400, code: 400, status: 'FAILED_PRECONDITION', message: adkAnswer, container }).container).toBe(container);
  });
});
