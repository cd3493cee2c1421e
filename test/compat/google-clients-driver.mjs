/**
 * Run by test/compat/google-clients.test.ts under Node.js 22 (what `@google-cloud/aiplatform` 7
 * needs), from the repository's root, against one `agentgen dev` the test started: every row of
 * the table below calls one public method of Google's own clients and prints what it saw, as one
 * JSON object `{node, aiplatform, vertexai, rows: [{name, transport, seen}]}`. The test holds what
 * docs/dev.md says each call does; a row without an expectation fails there. `seen` is a small
 * summary (never the whole answer) or `{error: {code, message}}`.
 *
 * Clients: `@google-cloud/aiplatform` 7.x (the `aiplatform-v7` alias), each call on its default
 * transport (gRPC: dev's gRPC port, an insecure channel, the token as call metadata) and over its
 * REST fallback (`fallback: true`, `protocol: 'http'`), and `@google-cloud/vertexai` 1.12's
 * `agentEnginesInternal` modules. All take their token from dev's metadata server
 * (`GCE_METADATA_HOST`, set by the test), as a container under `agentgen dev --command` does.
 *
 * argv: none; env: DEV_PORT, DEV_GRPC_PORT, DEV_ENGINE (the startup engine's name), DEV_PARENT (a project and location).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Client } from '@google-cloud/vertexai';
import { helpers, v1, v1beta1 } from 'aiplatform-v7';

const require = createRequire(import.meta.url);
const port = Number(process.env.DEV_PORT);
const grpcPort = Number(process.env.DEV_GRPC_PORT);
const engine = process.env.DEV_ENGINE;
const parent = process.env.DEV_PARENT;
const [project, location] = [engine.split('/')[1], engine.split('/')[3]];

const rest = { apiEndpoint: '127.0.0.1', port, protocol: 'http', fallback: true };
/** The client's own auth finds dev's metadata server (GCE_METADATA_HOST), as it does for the REST fallback. */
const tokenClient = new v1.SessionServiceClient(rest);
const token = await tokenClient.auth.getAccessToken();
await tokenClient.close();
// google-gax's own @grpc/grpc-js (the copy aiplatform-v7 resolves): grpc-js checks the credentials' class.
const { grpc } = createRequire(require.resolve('aiplatform-v7'))('google-gax');
/** gRPC: the endpoint, dev's gRPC port, an insecure channel, the universe domain (so gax probes for no cloud credentials). */
const grpcOptions = { apiEndpoint: '127.0.0.1', port: grpcPort, sslCreds: grpc.credentials.createInsecure(), universeDomain: 'googleapis.com' };
/** An insecure channel carries no call credentials: the token goes as call metadata, docs/dev.md's `call`. */
const call = { otherArgs: { headers: { authorization: `Bearer ${token}` } } };

/** A gax client whose every call carries `call` beside the row's own options. */
const withCall = (client) =>
  new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      if (property === 'close') return value.bind(target);
      return (request, options = {}) => value.call(target, request, { ...options, ...call });
    },
  });

/** aiplatform 7's clients on one transport: the REST fallback, or gRPC (the default). */
function clientsOf(transport) {
  const options = transport === 'grpc' ? grpcOptions : rest;
  const wrap = transport === 'grpc' ? withCall : (client) => client;
  return {
    engines: wrap(new v1beta1.ReasoningEngineServiceClient(options)),
    enginesV1: wrap(new v1.ReasoningEngineServiceClient(options)),
    execution: wrap(new v1.ReasoningEngineExecutionServiceClient(options)),
    revisions: wrap(new v1beta1.ReasoningEngineRuntimeRevisionServiceClient(options)),
    sessions: wrap(new v1beta1.SessionServiceClient(options)),
    memories: wrap(new v1beta1.MemoryBankServiceClient(options)),
  };
}
const vertex = new Client({ project, location, apiEndpoint: `http://127.0.0.1:${port}` }).agentEnginesInternal;
const struct = (object) => helpers.toValue(object).structValue;

/** A gax long-running operation's result. */
const finished = async ([operation]) => (await operation.promise())[0];

/**
 * aiplatform 7's rows on one transport, each one call of one public method; `run` returns a small
 * summary of the answer. Each transport's rows leave dev as they found it (engines, sessions and
 * memories deleted), so both see the same answers.
 */
function aiplatformRows(transport, clients) {
  /** Values rows hand to later rows (ids the service chose). */
  const state = {};
  return [
    // --- ReasoningEngineService (the control plane) ---
    {
      name: 'aiplatform ReasoningEngineService.createReasoningEngine',
      run: async () => {
        const created = await finished(
          await clients.engines.createReasoningEngine({
            parent,
            reasoningEngine: {
              displayName: 'harness',
              spec: { classMethods: [struct({ name: 'echo', api_mode: '' })], buildSpec: { workerPool: `${parent}/workerPools/w` } },
            },
          }),
        );
        state.engine = created.name;
        return { displayName: created.displayName, methods: created.spec.classMethods.length };
      },
    },
    {
      name: 'aiplatform ReasoningEngineService.getReasoningEngine',
      run: async () => {
        const [got] = await clients.engines.getReasoningEngine({ name: state.engine });
        return { displayName: got.displayName, workerPool: got.spec.buildSpec?.workerPool === `${parent}/workerPools/w` };
      },
    },
    {
      name: 'aiplatform ReasoningEngineService.listReasoningEngines',
      run: async () => {
        const [engines] = await clients.engines.listReasoningEngines({ parent });
        return { names: engines.map((one) => one.displayName) };
      },
    },
    {
      name: 'aiplatform ReasoningEngineService.updateReasoningEngine (masked)',
      run: async () => {
        const updated = await finished(
          await clients.engines.updateReasoningEngine({
            reasoningEngine: { name: state.engine, displayName: 'renamed' },
            updateMask: { paths: ['display_name'] },
          }),
        );
        return { displayName: updated.displayName, methods: updated.spec.classMethods.length };
      },
    },
    {
      name: 'aiplatform ReasoningEngineService.updateReasoningEngine (no mask)',
      run: async () => {
        const updated = await finished(
          await clients.engines.updateReasoningEngine({ reasoningEngine: { name: state.engine, displayName: 'again', description: 'maskless' } }),
        );
        return { displayName: updated.displayName, description: updated.description, methods: updated.spec.classMethods.length };
      },
    },
    {
      name: 'aiplatform ReasoningEngineRuntimeRevisionService.listReasoningEngineRuntimeRevisions',
      run: async () => {
        const [revisions] = await clients.revisions.listReasoningEngineRuntimeRevisions({ parent: state.engine });
        return { revisions: revisions.map((revision) => [revision.name.slice(state.engine.length), revision.state]) };
      },
    },
    {
      name: 'aiplatform ReasoningEngineRuntimeRevisionService.getReasoningEngineRuntimeRevision',
      run: async () => {
        const [revision] = await clients.revisions.getReasoningEngineRuntimeRevision({ name: `${state.engine}/runtimeRevisions/1` });
        return { state: revision.state, methods: revision.spec.classMethods.length };
      },
    },
    {
      name: 'aiplatform ReasoningEngineRuntimeRevisionService.deleteReasoningEngineRuntimeRevision',
      run: async () => clients.revisions.deleteReasoningEngineRuntimeRevision({ name: `${state.engine}/runtimeRevisions/1` }),
    },
    {
      name: 'aiplatform ReasoningEngineService.getReasoningEngine (v1, the startup engine)',
      run: async () => {
        const [got] = await clients.enginesV1.getReasoningEngine({ name: engine });
        return { methods: got.spec.classMethods.map((method) => method.fields.name.stringValue) };
      },
    },
    {
      name: 'aiplatform ReasoningEngineExecutionService.queryReasoningEngine',
      run: async () => {
        const [answer] = await clients.execution.queryReasoningEngine({ name: engine, classMethod: 'echo', input: struct({ x: 1 }) });
        return { classMethod: helpers.fromValue(answer.output).echo.class_method };
      },
    },
    // Only gRPC streams: the REST fallback reads a server-streaming answer as one JSON array, dev's is NDJSON.
    ...(transport === 'grpc'
      ? [
          {
            name: 'aiplatform ReasoningEngineExecutionService.streamQueryReasoningEngine',
            run: async () => {
              const lines = [];
              for await (const chunk of clients.execution.streamQueryReasoningEngine({ name: engine, classMethod: 'chunks', input: struct({}) }))
                lines.push(JSON.parse(Buffer.from(chunk.data).toString('utf8')).n);
              return { lines };
            },
          },
        ]
      : []),
    {
      name: 'aiplatform ReasoningEngineExecutionService.asyncQueryReasoningEngine',
      run: async () => clients.execution.asyncQueryReasoningEngine({ name: engine, classMethod: 'echo', input: struct({}) }),
    },
    {
      name: 'aiplatform ReasoningEngineService.getOperation',
      run: async () => {
        const [operation] = await clients.engines.createReasoningEngine({ parent, reasoningEngine: { displayName: 'op', spec: {} } });
        await operation.promise();
        const [got] = await clients.engines.getOperation({ name: operation.name });
        state.opEngine = got.name.slice(0, got.name.indexOf('/operations/'));
        return { done: got.done };
      },
    },
    {
      name: 'aiplatform ReasoningEngineService.cancelOperation',
      run: async () => clients.engines.cancelOperation({ name: `${engine}/operations/1` }),
    },
    {
      name: 'aiplatform ReasoningEngineService.deleteOperation',
      run: async () => clients.engines.deleteOperation({ name: `${state.opEngine}/operations/1` }),
    },
    {
      name: 'aiplatform ReasoningEngineService.listOperationsAsync',
      run: async () => {
        const names = [];
        for await (const operation of clients.engines.listOperationsAsync({ name: engine }, { autoPaginate: false })) names.push(operation.name);
        return { names };
      },
    },

    // --- SessionService ---
    {
      name: 'aiplatform SessionService.createSession',
      run: async () => {
        const session = await finished(
          await clients.sessions.createSession({ parent: engine, session: { userId: 'ada', displayName: 'trip', labels: { team: 'a' } } }),
        );
        state.session = session.name;
        return { userId: session.userId, labels: session.labels };
      },
    },
    {
      name: 'aiplatform SessionService.getSession',
      run: async () => {
        const [session] = await clients.sessions.getSession({ name: state.session });
        return { userId: session.userId, displayName: session.displayName };
      },
    },
    {
      name: 'aiplatform SessionService.listSessions',
      run: async () => {
        const [sessions] = await clients.sessions.listSessions({ parent: engine, filter: 'user_id="ada"' });
        return { count: sessions.length };
      },
    },
    {
      name: 'aiplatform SessionService.updateSession (masked)',
      run: async () => {
        const [session] = await clients.sessions.updateSession({
          session: { name: state.session, displayName: 'renamed' },
          updateMask: { paths: ['display_name'] },
        });
        return { displayName: session.displayName, labels: session.labels };
      },
    },
    {
      name: 'aiplatform SessionService.updateSession (no mask)',
      run: async () => {
        const [session] = await clients.sessions.updateSession({ session: { name: state.session, userId: 'ada', sessionState: struct({ step: 2 }) } });
        return { displayName: session.displayName, labels: session.labels, step: session.sessionState?.fields?.step?.numberValue };
      },
    },
    {
      name: 'aiplatform SessionService.appendEvent',
      run: async () => {
        const [answer] = await clients.sessions.appendEvent({
          name: state.session,
          event: {
            author: 'user',
            invocationId: 'i1',
            timestamp: { seconds: Math.floor(Date.now() / 1000) },
            content: { role: 'user', parts: [{ text: 'Ada flies to Lima' }] },
          },
        });
        return { answer };
      },
    },
    {
      name: 'aiplatform SessionService.listEvents',
      run: async () => {
        const [events] = await clients.sessions.listEvents({ parent: state.session });
        return { texts: events.map((event) => event.content.parts[0].text) };
      },
    },

    // --- MemoryBankService ---
    {
      name: 'aiplatform MemoryBankService.generateMemories (from a session, no scope)',
      run: async () => {
        const answer = await finished(await clients.memories.generateMemories({ parent: engine, vertexSessionSource: { session: state.session } }));
        state.memory = answer.generatedMemories[0].memory.name;
        return { facts: answer.generatedMemories.map((one) => [one.memory.fact, one.memory.scope]) };
      },
    },
    {
      name: 'aiplatform MemoryBankService.createMemory',
      run: async () => {
        const memory = await finished(await clients.memories.createMemory({ parent: engine, memory: { fact: 'Ada likes tea', scope: { user_id: 'ada' } } }));
        state.tea = memory.name;
        return { fact: memory.fact, scope: memory.scope };
      },
    },
    {
      name: 'aiplatform MemoryBankService.getMemory',
      run: async () => {
        const [memory] = await clients.memories.getMemory({ name: state.memory });
        return { fact: memory.fact };
      },
    },
    {
      name: 'aiplatform MemoryBankService.listMemories',
      run: async () => {
        const [memories] = await clients.memories.listMemories({ parent: engine });
        return { facts: memories.map((memory) => memory.fact).sort() };
      },
    },
    {
      name: 'aiplatform MemoryBankService.updateMemory (updateMask=fact)',
      run: async () => {
        const memory = await finished(
          await clients.memories.updateMemory({ memory: { name: state.memory, fact: 'Ada flies to Cusco' }, updateMask: { paths: ['fact'] } }),
        );
        return { fact: memory.fact, scope: memory.scope };
      },
    },
    {
      name: 'aiplatform MemoryBankService.retrieveMemories',
      run: async () => {
        const [answer] = await clients.memories.retrieveMemories({
          parent: engine,
          scope: { user_id: 'ada' },
          similaritySearchParams: { searchQuery: 'Cusco', topK: 1 },
        });
        return { facts: answer.retrievedMemories.map((one) => one.memory.fact) };
      },
    },
    {
      name: 'aiplatform MemoryBankService.deleteMemory',
      run: async () => {
        // Both memories, one by one, so the other transport's rows find none (aiplatform 7.4 has no PurgeMemories).
        for (const name of [state.memory, state.tea]) await finished(await clients.memories.deleteMemory({ name }));
        const [memories] = await clients.memories.listMemories({ parent: engine });
        return { left: memories.length };
      },
    },
    {
      name: 'aiplatform SessionService.deleteSession',
      run: async () => {
        await finished(await clients.sessions.deleteSession({ name: state.session }));
        const [sessions] = await clients.sessions.listSessions({ parent: engine });
        return { left: sessions.length };
      },
    },
    {
      name: 'aiplatform ReasoningEngineService.deleteReasoningEngine',
      run: async () => {
        await finished(await clients.engines.deleteReasoningEngine({ name: state.engine }));
        await finished(await clients.engines.deleteReasoningEngine({ name: state.opEngine }));
        const [engines] = await clients.engines.listReasoningEngines({ parent });
        return { names: engines.map((one) => one.displayName) };
      },
    },
  ].map((row) => ({ ...row, transport }));
}

/** Values vertexai's rows hand to later rows. */
const state = {};
const restClients = clientsOf('rest');
const grpcClients = clientsOf('grpc');
/** The table: aiplatform's rows on the REST fallback, then on gRPC, then vertexai's (REST only). */
const rows = [
  ...aiplatformRows('rest', restClients),
  ...aiplatformRows('grpc', grpcClients),
  // --- @google-cloud/vertexai 1.12: agentEnginesInternal and its modules ---
  {
    name: 'vertexai agentEnginesInternal.createInternal + getAgentOperationInternal',
    run: async () => {
      let operation = await vertex.createInternal({ config: { displayName: 'vx', spec: { classMethods: [{ name: 'echo', api_mode: '' }] } } });
      for (let tries = 0; !operation.done && tries < 200; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        operation = await vertex.getAgentOperationInternal({ operationName: operation.name });
      }
      state.vxEngine = operation.response.name;
      return { done: operation.done, displayName: operation.response.displayName };
    },
  },
  { name: 'vertexai agentEnginesInternal.getInternal', run: async () => ({ displayName: (await vertex.getInternal({ name: state.vxEngine })).displayName }) },
  {
    name: 'vertexai agentEnginesInternal.listInternal',
    run: async () => ({ names: ((await vertex.listInternal({})).reasoningEngines ?? []).map((one) => one.displayName) }),
  },
  {
    name: 'vertexai agentEnginesInternal.updateInternal (no mask, as adk deploy)',
    run: async () => {
      const operation = await vertex.updateInternal({ name: state.vxEngine, config: { displayName: 'vx2', description: 'redeployed' } });
      return { done: operation.done, displayName: operation.response?.displayName };
    },
  },
  {
    name: 'vertexai agentEnginesInternal.queryInternal',
    run: async () => ({
      classMethod: (await vertex.queryInternal({ name: engine, config: { classMethod: 'echo', input: { y: 2 } } })).output.echo.class_method,
    }),
  },
  {
    name: 'vertexai sessions.createInternal, get, listInternal, updateInternal, delete',
    run: async () => {
      const created = await vertex.sessions.createInternal({ name: engine, userId: 'bo', config: { sessionId: 'vx-session' } });
      const name = `${engine}/sessions/vx-session`;
      const got = await vertex.sessions.get({ name });
      const listed = await vertex.sessions.listInternal({ name: engine, config: { filter: 'user_id="bo"' } });
      const updated = await vertex.sessions.updateInternal({ name, config: { displayName: 'bo trip', updateMask: 'displayName' } });
      await vertex.sessions.events.append({
        name,
        author: 'user',
        invocationId: 'i',
        timestamp: new Date().toISOString(),
        config: { content: { role: 'user', parts: [{ text: 'Bo rides' }] } },
      });
      const events = await vertex.sessions.events.listInternal({ name });
      await vertex.sessions.delete({ name });
      return {
        created: created.done,
        userId: got.userId,
        listed: listed.sessions.length,
        displayName: updated.displayName,
        events: events.sessionEvents.length,
      };
    },
  },
  {
    name: 'vertexai memories.createInternal, get, listInternal, updateInternal, retrieveInternal, purgeInternal',
    run: async () => {
      const created = await vertex.memories.createInternal({
        name: engine,
        fact: 'Bo likes jazz',
        scope: { user_id: 'bo' },
        config: { memoryId: 'vx-memory' },
      });
      const name = `${engine}/memories/vx-memory`;
      const got = await vertex.memories.get({ name });
      const listed = await vertex.memories.listInternal({ name: engine, config: { filter: 'scope.user_id="bo"' } });
      const updated = await vertex.memories.updateInternal({ name, fact: 'Bo likes blues', scope: {}, config: { updateMask: 'fact' } });
      const retrieved = await vertex.memories.retrieveInternal({ name: engine, scope: { user_id: 'bo' }, similaritySearchParams: { searchQuery: 'blues' } });
      const purged = await vertex.memories.purgeInternal({ name: engine, filter: 'scope.user_id="bo"', force: true });
      return {
        created: created.done,
        fact: got.fact,
        listed: listed.memories.length,
        updated: updated.response.fact,
        retrieved: retrieved.retrievedMemories.map((one) => one.memory.fact),
        purged: purged.response.purgeCount,
      };
    },
  },
  {
    name: 'vertexai memories.generateInternal (direct contents)',
    run: async () => {
      const answer = await vertex.memories.generateInternal({
        name: engine,
        directContentsSource: { events: [{ content: { role: 'user', parts: [{ text: 'Cy reads' }] } }] },
        scope: { user_id: 'cy' },
      });
      return { facts: answer.response.generatedMemories.map((one) => one.memory.fact) };
    },
  },
  { name: 'vertexai memories.ingestEventsInternal', run: async () => vertex.memories.ingestEventsInternal({ name: engine, scope: { user_id: 'cy' } }) },
  { name: 'vertexai memories.retrieveProfiles', run: async () => vertex.memories.retrieveProfiles({ name: engine, scope: { user_id: 'cy' } }) },
  { name: 'vertexai memories.revisions.listInternal', run: async () => vertex.memories.revisions.listInternal({ name: `${engine}/memories/m` }) },
  { name: 'vertexai memories.rollbackInternal', run: async () => vertex.memories.rollbackInternal({ name: `${engine}/memories/m`, targetRevisionId: '1' }) },
  { name: 'vertexai sandboxes.listInternal', run: async () => vertex.sandboxes.listInternal({ name: engine }) },
  {
    name: 'vertexai agentEnginesInternal.deleteInternal',
    run: async () => ({ done: (await vertex.deleteInternal({ name: state.vxEngine })).name !== undefined }),
  },
];

/** An error as both clients report it: gax's gRPC code (from the HTTP status), vertexai's HTTP status. */
function errorOf(error) {
  const code = typeof error?.code === 'number' ? error.code : typeof error?.status === 'number' ? error.status : undefined;
  // gax puts the Status message in `message` (and `details` is a list) on the REST fallback, in `details` on gRPC.
  const message = typeof error?.details === 'string' && error.details !== '' ? error.details : String(error?.message ?? error);
  return { error: { code, message } };
}

const results = [];
for (const row of rows) {
  let seen;
  try {
    seen = await row.run();
    // A call expected to be refused that answered: keep it small and recognisable.
    if (seen !== null && typeof seen === 'object' && Array.isArray(seen)) seen = { answered: true };
  } catch (error) {
    seen = errorOf(error);
  }
  results.push({ name: row.name, transport: row.transport ?? 'rest', seen });
}
for (const client of [...Object.values(restClients), ...Object.values(grpcClients)]) await client.close();

const version = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
process.stdout.write(
  JSON.stringify({ node: process.version, aiplatform: version('aiplatform-v7'), vertexai: version('@google-cloud/vertexai'), rows: results }),
);
