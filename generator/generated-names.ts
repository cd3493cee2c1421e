/**
 * The type names a generated output declares whatever the spec says. `resolve` refuses a spec
 * whose derived names would shadow one of them; the emitters declare them by these names.
 */
export const generatedTypeNames = {
  /** types.ts: the union of the declared operations' names. */
  operationName: 'OperationName',
  /** server.ts: the handler interface a user implements. */
  handlers: 'AgentHandlers',
  /** client.ts: the typed client. */
  client: 'AgentClient',
  /** The contract's types (`codegenv1/contract`, re-exported by types.ts): the body of a unary answer. */
  unaryResponse: 'UnaryResponse',
} as const;
