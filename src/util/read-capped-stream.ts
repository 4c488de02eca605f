/** What {@link readCappedStream} read: the bytes, and whether they are the whole stream. */
export interface CappedRead {
  readonly bytes: Uint8Array;
  /** `false` when the stream passed the limit: reading stopped there and the stream was cancelled. */
  readonly complete: boolean;
}

/**
 * Reads a byte stream chunk by chunk, and stops as soon as more than `maxBytes` arrived: the stream is
 * cancelled (a ReadableStream) or left (an async iterable, whose return() destroys a Node stream), so a
 * hostile body costs one chunk past the limit, not its size. Read errors are the caller's to describe.
 */
export async function readCappedStream(stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>, maxBytes: number): Promise<CappedRead> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const take = (chunk: Uint8Array | string): boolean => {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    total += bytes.byteLength;
    chunks.push(bytes);
    return total <= maxBytes;
  };
  let complete = true;
  if (stream instanceof ReadableStream) {
    const reader = stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (!take(next.value)) {
        complete = false;
        // Through the reader: the stream is locked to it. Cancelling drops the connection behind it.
        void reader.cancel('body over the size limit').catch(() => undefined);
        break;
      }
    }
  } else {
    for await (const chunk of stream) {
      if (!take(chunk)) {
        complete = false;
        break;
      }
    }
  }
  return { bytes: chunks.length === 1 ? chunks[0]! : concat(chunks, total), complete };
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
