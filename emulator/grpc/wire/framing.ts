/**
 * gRPC's message framing on an HTTP/2 stream (grpc/grpc doc/PROTOCOL-HTTP2.md, "Length-Prefixed-
 * Message"): a compressed-flag byte, a 4-byte big-endian length, then the message. The reader
 * refuses a message over the receive limit as soon as its prefix arrives, before buffering it.
 */
import { type GrpcStatus, grpcStatus } from '../../proto/status-codes.js';

const prefixLength = 5;

/** One message with its prefix (flag 0: the face never compresses). */
export function frame(message: Uint8Array): Buffer {
  const framed = Buffer.allocUnsafe(prefixLength + message.length);
  framed[0] = 0;
  framed.writeUInt32BE(message.length, 1);
  framed.set(message, prefixLength);
  return framed;
}

/** A refusal of the incoming bytes, with the status the call ends with. */
export class FramingError extends Error {
  constructor(readonly status: GrpcStatus) {
    super(status.message);
  }
}

/**
 * Cuts the request stream's DATA into whole messages. Only identity encoding is accepted: a
 * message with the compressed flag set is refused (UNIMPLEMENTED naming the encoding, as grpc-js
 * words it, or INTERNAL when the call declared none), as the protocol says a server does.
 */
export class MessageReader {
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** The length of the message being read, once its prefix is in; -1 before. */
  #expected = -1;

  readonly #encoding: string | undefined;
  readonly #maxLength: number;
  constructor(
    maxLength: number,
    /** The call's `grpc-encoding` header, if any. */
    encoding: string | undefined,
  ) {
    this.#maxLength = maxLength;
    this.#encoding = encoding;
  }

  /** The whole messages `chunk` completes; throws FramingError for a message refused. */
  push(chunk: Buffer): Buffer[] {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    const messages: Buffer[] = [];
    for (;;) {
      if (this.#expected === -1) {
        if (this.#buffered < prefixLength) return messages;
        const prefix = this.#take(prefixLength);
        this.#checkFlag(prefix[0] ?? 0);
        const length = prefix.readUInt32BE(1);
        if (length > this.#maxLength) {
          throw new FramingError({ code: grpcStatus.RESOURCE_EXHAUSTED, message: `Received message larger than max (${length} vs. ${this.#maxLength})` });
        }
        this.#expected = length;
      }
      if (this.#buffered < this.#expected) return messages;
      messages.push(this.#take(this.#expected));
      this.#expected = -1;
    }
  }

  /** Bytes of an unfinished message are left: the request ended inside it. */
  get partial(): boolean {
    return this.#buffered > 0 || this.#expected !== -1;
  }

  #checkFlag(flag: number): void {
    if (flag === 0) return;
    const encoding = this.#encoding ?? 'identity';
    if (flag === 1 && encoding !== 'identity') {
      throw new FramingError({
        code: grpcStatus.UNIMPLEMENTED,
        message: `Received message compressed with unsupported encoding "${encoding}": this server accepts identity only`,
      });
    }
    throw new FramingError({
      code: grpcStatus.INTERNAL,
      message: flag === 1 ? 'Received a compressed message, but the call declared no grpc-encoding' : `Invalid message flag ${flag}`,
    });
  }

  /** The first `length` buffered bytes, joined only when they span chunks. */
  #take(length: number): Buffer {
    const first = this.#chunks[0];
    let taken: Buffer;
    if (first !== undefined && first.length >= length) {
      taken = first.subarray(0, length);
      if (first.length === length) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(length);
    } else {
      const joined = Buffer.concat(this.#chunks, this.#buffered);
      taken = joined.subarray(0, length);
      this.#chunks = joined.length > length ? [joined.subarray(length)] : [];
    }
    this.#buffered -= length;
    return taken;
  }
}
