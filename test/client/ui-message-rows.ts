/**
 * ADK event lists (wire form) and the message the AI SDK's reader must build from each through
 * `toUIMessageStream`: one row per rule of runtime/src/ui/adk-turn.ts. Plain JSON data, so that the
 * same rows run against `ai` 6 in this process (ui-ai-sdk.test.ts) and against `ai` 7 under
 * Node.js 22 in a project of its own (test/compat/ai-sdk-7.test.ts).
 */
/** Stands for an id `toUIMessageStream` made up (`newId('tool')`, `tool-<n>` in the tests): compare with `generatedToolIdPattern`. */
export const generatedToolId = '<generated tool id>';
export const generatedToolIdPattern = /^tool-\d+$/;

export const model = (...parts: unknown[]) => ({ author: 'weather_agent', content: { role: 'model', parts } });
export const partial = (text: string) => ({ ...model({ text }), partial: true });
export const call = { function_call: { id: 'c1', name: 'get_weather', args: { city: 'Paris', options: { days: 2 } } } };
export const result = { function_response: { id: 'c1', name: 'get_weather', response: { sky: 'clear' } } };

export interface Row {
  readonly name: string;
  readonly events: unknown[];
  /** The event stream then throws an Error with this message (as an AgentApiError mid-stream would). */
  readonly failure?: string;
  /** The message parts as the reader builds them (only the fields that matter). */
  readonly parts: unknown[];
  readonly finishReason: string;
  readonly errors?: string[];
}

export const rows: Row[] = [
  { name: 'one complete text', events: [model({ text: 'Hello' })], parts: [{ type: 'text', text: 'Hello' }], finishReason: 'stop' },
  {
    name: 'partial texts then the complete one that repeats them: deltas only, nothing twice',
    events: [partial('Hel'), partial('lo '), partial('there'), model({ text: 'Hello there' })],
    parts: [{ type: 'text', text: 'Hello there' }],
    finishReason: 'stop',
  },
  {
    name: 'the complete text says more than the partials: only the rest is added',
    events: [partial('Hello'), model({ text: 'Hello there' })],
    parts: [{ type: 'text', text: 'Hello there' }],
    finishReason: 'stop',
  },
  {
    name: 'the complete text contradicts the partials: the final text replaces them, in a part of its own (the streamed one is marked replaced)',
    events: [partial('Hello wrold'), model({ text: 'Hello world' })],
    parts: [
      { type: 'text', text: 'Hello wrold' },
      { type: 'text', text: 'Hello world' },
    ],
    finishReason: 'stop',
  },
  {
    name: 'a complete event followed by partials of its text, then the complete one again: the text once',
    events: [model({ text: 'Hello there' }), partial('Hello'), partial(' there'), model({ text: 'Hello there' })],
    parts: [{ type: 'text', text: 'Hello there' }],
    finishReason: 'stop',
  },
  {
    name: 'partials after a complete event that say something else: a new text, from its start',
    events: [model({ text: 'Hello there' }), partial('Hello'), partial(' you'), model({ text: 'Hello you' })],
    parts: [
      { type: 'text', text: 'Hello there' },
      { type: 'text', text: 'Hello you' },
    ],
    finishReason: 'stop',
  },
  {
    name: 'partials never completed: closed at the end',
    events: [partial('Hel'), partial('lo')],
    parts: [{ type: 'text', text: 'Hello' }],
    finishReason: 'stop',
  },
  {
    name: 'a tool call and its result, then the answer',
    events: [model(call), { author: 'weather_agent', content: { role: 'user', parts: [result] } }, model({ text: 'Clear in Paris' })],
    parts: [
      { type: 'tool-get_weather', toolCallId: 'c1', state: 'output-available', input: { city: 'Paris', options: { days: 2 } }, output: { sky: 'clear' } },
      { type: 'text', text: 'Clear in Paris' },
    ],
    finishReason: 'stop',
  },
  {
    name: 'a call without an id gets one; its result without an id finds it by name',
    events: [
      model({ function_call: { name: 'get_weather', args: { city: 'Oslo' } } }),
      model({ function_response: { name: 'get_weather', response: { sky: 'snow' } } }),
    ],
    parts: [{ type: 'tool-get_weather', toolCallId: generatedToolId, input: { city: 'Oslo' }, output: { sky: 'snow' } }],
    finishReason: 'stop',
  },
  {
    name: 'a partial function call is ignored until the complete event carries it',
    events: [{ ...model(call), partial: true }, model(call), model(result)],
    parts: [{ type: 'tool-get_weather', toolCallId: 'c1', output: { sky: 'clear' } }],
    finishReason: 'stop',
  },
  {
    name: 'a result whose call is not in this stream is left out',
    events: [model({ function_response: { id: 'old', name: 'get_weather', response: {} } }), model({ text: 'ok' })],
    parts: [{ type: 'text', text: 'ok' }],
    finishReason: 'stop',
  },
  {
    name: 'thought parts are reasoning, text is text',
    events: [{ ...model({ text: 'Think', thought: true }), partial: true }, model({ text: 'Think', thought: true }, { text: 'Answer' })],
    parts: [
      { type: 'reasoning', text: 'Think' },
      { type: 'text', text: 'Answer' },
    ],
    finishReason: 'stop',
  },
  {
    name: 'text and a call in one event keep their order',
    events: [model({ text: 'Let me look' }, call), model(result)],
    parts: [
      { type: 'text', text: 'Let me look' },
      { type: 'tool-get_weather', toolCallId: 'c1', output: { sky: 'clear' } },
    ],
    finishReason: 'stop',
  },
  {
    name: "the model's finish reason",
    events: [{ ...model({ text: 'cut' }), finish_reason: 'MAX_TOKENS' }],
    parts: [{ type: 'text', text: 'cut' }],
    finishReason: 'length',
  },
  {
    name: 'an error event: an error chunk with its code, the open text closed, nothing after it',
    events: [partial('Hal'), { error_code: 'RESOURCE_EXHAUSTED', error_message: 'Quota exceeded' }, model({ text: 'after the error' })],
    parts: [{ type: 'text', text: 'Hal' }],
    finishReason: 'error',
    errors: ['RESOURCE_EXHAUSTED: Quota exceeded'],
  },
  {
    name: 'the stream fails (an AgentApiError mid-stream): a generic error chunk after what came, nothing of the thrown message',
    events: [model({ text: 'Hi' })],
    failure: 'The agent stream ended with 503 UNAVAILABLE at http://10.0.0.7:8080 token=ya29.secret',
    parts: [{ type: 'text', text: 'Hi' }],
    finishReason: 'error',
    errors: ['The agent stream failed'],
  },
  {
    name: 'an event that is not an object: a clear error, no crash',
    events: ['{"oops"'],
    parts: [],
    finishReason: 'error',
    errors: ['The agent stream failed'],
  },
  {
    name: 'a function call without a name: said, and the run ends failed, as in AG-UI',
    events: [model({ function_call: { args: {} } })],
    parts: [],
    finishReason: 'error',
    errors: ['agentgen: a function_call part has no name; it is left out'],
  },
  { name: 'no events at all', events: [], parts: [], finishReason: 'stop' },
];
