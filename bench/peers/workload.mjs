// What every benchmarked server answers, so each does the same work: the session a unary
// `async_create_session` returns, and the events an `async_stream_query` streams: as many as its
// `run_config.events` asks (the peers benchmark's 20 and 1,000), else BENCH_EVENTS (default 20).
const eventsPerStream = Number(process.env.BENCH_EVENTS ?? 20);

export function sessionFor(input) {
  return { id: 's1', app_name: 'bench', user_id: input.user_id, state: input.state ?? {}, events: [], last_update_time: 1 };
}

export async function* turn(input) {
  const count = Number.isInteger(input.run_config?.events) ? input.run_config.events : eventsPerStream;
  for (let i = 0; i < count; i++) {
    yield {
      id: `e${i}`,
      invocation_id: 'i1',
      author: 'agent',
      timestamp: 1700000000 + i,
      content: { role: 'model', parts: [{ text: `token ${i} for ${input.user_id}` }] },
    };
  }
}
