/**
 * The REST face's stream answer: the container's NDJSON passed on as it is, or re-framed as
 * server-sent events for `?alt=sse`; the broken-off stream's last line framed the same way.
 */
import type { ServerResponse } from 'node:http';
import type { StreamSink } from '../containers/forward.js';
import { SseFramer, sseFrame } from './sse-framer.js';

const newline = 0x0a;

export function restStreamSink(res: ServerResponse, sse: boolean): StreamSink {
  const framer = sse ? new SseFramer() : undefined;
  // NDJSON: whether what went out so far ends a line, so a last line is never glued to a partial one.
  let endsWithNewline = true;
  return {
    open() {
      // The real service labels both framings application/json; so does the emulator.
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
      res.flushHeaders();
    },
    write(chunk) {
      if (framer === undefined) {
        endsWithNewline = chunk[chunk.length - 1] === newline;
        return res.write(chunk);
      }
      const framed = framer.push(chunk);
      return framed === undefined ? true : res.write(framed);
    },
    onceDrained(resume) {
      res.once('drain', resume);
    },
    end(errorLine) {
      if (framer !== undefined) {
        // A line the container left unfinished is not an event: dropped before the error line.
        res.end(errorLine === undefined ? framer.end() : sseFrame(errorLine));
        return;
      }
      const close = endsWithNewline ? '' : '\n';
      res.end(errorLine === undefined ? close : `${close}${errorLine}\n`);
    },
    get gone() {
      return res.destroyed;
    },
  };
}
