/**
 * The agent of the A2A long-running-tool tests (long-running-tool.test.ts, replica-takeover.test.ts):
 * a deterministic model of the tests' own and ADK's LongRunningFunctionTool `ask_approval`, and
 * the caller's messages to it.
 */
import { randomUUID } from 'node:crypto';
import type { Message } from '@a2a-js/sdk';
import { BaseLlm, type BaseLlmConnection, LlmAgent, type LlmRequest, type LlmResponse, LongRunningFunctionTool } from '@google/adk';
import { z } from 'zod';

/**
 * Answers from the request alone: "refund <n>" calls the long-running `ask_approval`; after the
 * tool's first answer, says it waits; after the caller's answer, reports it; anything else echoes.
 */
class ApprovalModel extends BaseLlm {
  constructor() {
    super({ model: 'approval-script' });
  }

  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const last = request.contents.at(-1);
    const response = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
    if (response !== undefined) {
      const answer = response.response as Record<string, unknown>;
      yield text(answer['status'] === 'pending' ? 'Waiting for a manager to approve.' : `Approval: ${JSON.stringify(answer)}`);
      return;
    }
    const said = (last?.parts ?? []).map((part) => part.text ?? '').join(' ');
    const refund = /^refund (\d+)$/.exec(said);
    if (refund) yield { content: { role: 'model', parts: [{ functionCall: { name: 'ask_approval', args: { amount: Number(refund[1]) } } }] } };
    else yield text(`You said: ${said}`);
  }

  override connect(_request: LlmRequest): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('no live mode'));
  }
}

function text(value: string): LlmResponse {
  return { content: { role: 'model', parts: [{ text: value }] } };
}

const askApproval = new LongRunningFunctionTool({
  name: 'ask_approval',
  description: 'Asks a manager to approve a refund.',
  parameters: z.object({ amount: z.number() }),
  execute: ({ amount }) => ({ status: 'pending', ticket: `T-${amount}` }),
});

/** The refunds agent: the scripted model and the long-running tool. */
export function approvalAgent(): LlmAgent {
  return new LlmAgent({ name: 'refunds', description: 'Refunds.', instruction: 'Refund.', model: new ApprovalModel(), tools: [askApproval] });
}

/** A user's message with `parts`, in a task or context when `ids` names them. */
export function userMessage(parts: Message['parts'], ids: { taskId?: string; contextId?: string } = {}): Message {
  return { kind: 'message', messageId: randomUUID(), role: 'user', parts, ...ids };
}

/** The caller's answer to the long-running `call` (its id and name): a data part `adk_type: function_response`. */
export function functionResponse(call: Record<string, unknown>, response: Record<string, unknown>, ids: { taskId?: string; contextId?: string }): Message {
  return userMessage([{ kind: 'data', data: { id: call['id'], name: call['name'], response }, metadata: { adk_type: 'function_response' } }], ids);
}
