// Memory of the generated container under 1,000 streams whose callers do not read: each asks for a
// stream of BENCH_EVENTS events (default 5,000, about 0.7 MB a stream if the server buffered all
// of it) and then stops reading. A server that honours backpressure holds a bounded amount per
// stream (the socket's buffers and one pending event); one that buffers whole streams would need
// about 700 MB. Reported: the container's peak RSS (VmHWM, from /proc) against its RSS when idle,
// and the growth per stream. The target (issue 13): bounded, under 0.2 MB a stream.
//
//   node bench/slow-readers.mjs [--streams 1000] [--hold 3]      (npm run bench -- slow-readers)
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { forkTarget } from './fork-target.mjs';
import { recordResult } from './result.mjs';

const { values } = parseArgs({ options: { streams: { type: 'string', default: '1000' }, hold: { type: 'string', default: '3' } } });
const streams = Number(values.streams);
const holdSeconds = Number(values.hold);
const events = process.env.BENCH_EVENTS ?? '5000';

/** A process's resident set and its peak so far, in MB (Linux /proc). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const container = await forkTarget('./server-targets.mjs', ['generated'], { env: { BENCH_EVENTS: events, AGENT_LOG_FORMAT: 'off' } });
const { port } = container;
const body = JSON.stringify({ class_method: 'async_stream_query', input: { message: 'hello', user_id: 'slow-reader' } });
const requestBytes = `POST /api/stream_reasoning_engine HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const sockets = [];
try {
  await new Promise((r) => setTimeout(r, 300));
  const idle = memoryOf(container.pid).rss;
  // Each caller sends its request, reads the first bytes (the stream has started), then stops reading.
  await Promise.all(
    Array.from(
      { length: streams },
      () =>
        new Promise((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => socket.write(requestBytes));
          socket.setTimeout(30_000, () => reject(new Error('no answer within 30 s')));
          socket.once('data', () => {
            socket.pause();
            socket.setTimeout(0);
            resolve();
          });
          socket.on('error', reject);
          sockets.push(socket);
        }),
    ),
  );
  let peak = 0;
  for (let waited = 0; waited < holdSeconds * 1000; waited += 200) {
    await new Promise((r) => setTimeout(r, 200));
    peak = Math.max(peak, memoryOf(container.pid).peak);
  }
  const perStream = (peak - idle) / streams;
  console.log(`${streams} streams of ${events} events, none read for ${holdSeconds} s, node ${process.version}`);
  console.log(`container RSS: idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB: ${perStream.toFixed(3)} MB a stream (target < 0.2)`);
  recordResult('slow readers', [
    { metric: `container peak RSS, ${streams} unread streams`, unit: 'MB', median: peak, baseline: 'idle RSS', baselineMedian: idle, ratio: peak / idle },
    { metric: 'RSS growth per unread stream', unit: 'MB', median: perStream, target: '< 0.2 MB', met: perStream < 0.2 },
  ]);
} finally {
  for (const socket of sockets) socket.destroy();
  await container.stop();
}
