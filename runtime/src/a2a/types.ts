/**
 * A2A as the runtime sees it, one shape for both protocol versions it speaks: the A2A 0.3 JSON
 * shapes (`kind` discriminators, lower-case task states), which `wire.ts` turns into A2A 1.0's
 * ProtoJSON (`TASK_STATE_…`, parts without `kind`, stream results wrapped by case) for 1.0
 * callers. Handlers never see a version.
 */

export type JsonObject = { readonly [key: string]: unknown };

export type A2AProtocolVersion = '1.0' | '0.3';

export interface A2AFile {
  /** A URL to the file's bytes (A2A 1.0 `url`), or `bytes` (base64; 1.0 `raw`). */
  readonly uri?: string;
  readonly bytes?: string;
  readonly mimeType?: string;
  readonly name?: string;
}

export type A2APart =
  | { readonly kind: 'text'; readonly text: string; readonly metadata?: JsonObject }
  | { readonly kind: 'data'; readonly data: JsonObject; readonly metadata?: JsonObject }
  | { readonly kind: 'file'; readonly file: A2AFile; readonly metadata?: JsonObject };

export interface A2AMessage {
  readonly kind: 'message';
  readonly messageId: string;
  readonly role: 'user' | 'agent';
  readonly parts: readonly A2APart[];
  readonly contextId?: string;
  readonly taskId?: string;
  readonly metadata?: JsonObject;
}

export type A2ATaskState = 'submitted' | 'working' | 'input-required' | 'auth-required' | 'completed' | 'canceled' | 'failed' | 'rejected';

/** States after which a task takes no more messages. */
export const terminalStates: ReadonlySet<A2ATaskState> = new Set(['completed', 'canceled', 'failed', 'rejected']);

/** States that end a turn: the terminal ones, and those that wait for the caller. */
export const turnEndingStates: ReadonlySet<A2ATaskState> = new Set([...terminalStates, 'input-required', 'auth-required']);

export interface A2ATaskStatus {
  readonly state: A2ATaskState;
  readonly message?: A2AMessage;
  /** ISO 8601. */
  readonly timestamp: string;
}

export interface A2AArtifact {
  readonly artifactId: string;
  readonly name?: string;
  readonly parts: readonly A2APart[];
  readonly metadata?: JsonObject;
}

export interface A2ATask {
  readonly kind: 'task';
  readonly id: string;
  readonly contextId: string;
  readonly status: A2ATaskStatus;
  readonly artifacts: readonly A2AArtifact[];
  readonly history: readonly A2AMessage[];
}

export interface A2AStatusUpdate {
  readonly kind: 'status-update';
  readonly taskId: string;
  readonly contextId: string;
  readonly status: A2ATaskStatus;
  /** A2A 0.3's end-of-stream mark; 1.0 has none (the state says it). */
  readonly final: boolean;
  readonly metadata?: JsonObject;
}

export interface A2AArtifactUpdate {
  readonly kind: 'artifact-update';
  readonly taskId: string;
  readonly contextId: string;
  readonly artifact: A2AArtifact;
  readonly append: boolean;
  readonly lastChunk: boolean;
}

/** What a streamed call sends, in order: the task first, then its updates, the last one ending the turn. */
export type A2AStreamEvent = A2ATask | A2AStatusUpdate | A2AArtifactUpdate;

/**
 * What a handler's turn yields: progress or the turn's end (a status, with an optional agent
 * message: a tool call, say), or a piece of the answer (an artifact chunk). The runtime adds the
 * task and context ids, timestamps and kinds, keeps the task, and ends the stream itself when
 * the turn ends without saying how (`completed`, or `failed` when it threw).
 */
export type A2ATurnUpdate =
  | {
      readonly type: 'status';
      readonly state: Exclude<A2ATaskState, 'submitted' | 'canceled'>;
      readonly parts?: readonly A2APart[];
      readonly metadata?: JsonObject;
    }
  | {
      readonly type: 'artifact';
      /** The same id on each chunk of one artifact; default: one new artifact per update. */
      readonly artifactId?: string;
      readonly name?: string;
      readonly parts: readonly A2APart[];
      /** This chunk continues the artifact named by `artifactId`. */
      readonly append?: boolean;
      readonly lastChunk?: boolean;
    };

/** One turn as a handler gets it: the caller's message, with the ids the task runs under. */
export interface A2ATurn {
  readonly message: A2AMessage;
  readonly taskId: string;
  readonly contextId: string;
  /**
   * When the message continues a task that waited for the caller (`input-required` or
   * `auth-required`): the agent's message it waited with, say the tool call to answer.
   */
  readonly awaiting?: A2AMessage;
  /** Aborted when the task is canceled, the caller goes away, or the server shuts down. */
  readonly signal: AbortSignal;
}

/** The handler method a container with an A2A face needs beside its operations (AgentApp has it). */
export interface A2AHandlers {
  a2aTurn(turn: A2ATurn): AsyncIterable<A2ATurnUpdate> | Promise<AsyncIterable<A2ATurnUpdate>>;
  /**
   * Optional. Whether `message`, which names a task this instance does not hold and the context it
   * belongs to, continues that task here: on the platform another replica may have run the task
   * (tasks are kept in each instance's memory), while the conversation is the session, which every
   * replica reads. True takes the task over under its id, as a turn without `awaiting`; without
   * this method, or false, the message is answered `-32001` (task not found), as A2A says.
   * AgentApp answers true for a message that answers a long-running tool's call.
   */
  a2aContinues?(message: A2AMessage): boolean;
}

export interface A2ASkill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly examples?: readonly string[];
  readonly inputModes?: readonly string[];
  readonly outputModes?: readonly string[];
}

/**
 * The A2A face a spec declares (its `a2a:` section), as generated code hands it to the server:
 * the card's own fields, where it is mounted and which protocol versions it speaks. The card's
 * URL is not here: it depends on where the container runs (`card.ts`).
 */
export interface A2AFace {
  /** Path of the JSON-RPC endpoint; the card is at `{mount}/.well-known/agent-card.json`. */
  readonly mount: string;
  readonly protocolVersions: readonly A2AProtocolVersion[];
  readonly card: {
    readonly name: string;
    readonly description: string;
    readonly version: string;
    readonly provider?: { readonly organization: string; readonly url: string };
    readonly documentationUrl?: string;
    readonly iconUrl?: string;
    readonly streaming: boolean;
    readonly defaultInputModes: readonly string[];
    readonly defaultOutputModes: readonly string[];
    readonly skills: readonly A2ASkill[];
  };
}
