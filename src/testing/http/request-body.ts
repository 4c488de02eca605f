/**
 * Bounded request bodies: the mock reads at most a limit, whatever a client declares or streams, and
 * answers 413 past it, so one huge POST cannot grow its memory.
 *
 * @module
 */
import { readCappedStream } from '../../util/read-capped-stream.js';

/** The gateway operations' limit: their largest real body is a few KiB. */
export const MAX_OPERATION_BODY_BYTES = 1024 * 1024;

/** A body over its limit; what is past the limit is never read. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the request body is over ${limit} bytes, the mock's limit for this route`);
  }
}

/** Whether the declared `Content-Length` is over `limit` (the body is then refused unread). */
export function declaresTooMuch(contentLength: string | null | undefined, limit: number): boolean {
  return Number(contentLength ?? 0) > limit;
}

/**
 * The body as UTF-8 text, read chunk by chunk and stopped just past `limit`.
 *
 * @throws {@link BodyTooLarge}
 */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  if (declaresTooMuch(request.headers.get('content-length'), limit)) throw new BodyTooLarge(limit);
  if (request.body === null) return '';
  const { bytes, complete } = await readCappedStream(request.body, limit);
  if (!complete) throw new BodyTooLarge(limit);
  return new TextDecoder().decode(bytes);
}

/** The 413 answer, in plain text; the connection closes, as the rest of the body stays unread. */
export function tooLargeResponse(error: BodyTooLarge): Response {
  return new Response(`mock gateway: refused: ${error.message}.\n`, { status: 413, headers: { 'content-type': 'text/plain; charset=utf-8', connection: 'close' } });
}
