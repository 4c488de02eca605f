/**
 * The transport's classified failures, and anything unexpected, as the {@link GatewayError} a caller sees:
 * one place that words each kind of failure of an exchange for the operation it belongs to.
 *
 * @module
 */
import {
  GatewayAbortError,
  GatewayConnectionError,
  GatewayHttpStatusError,
  GatewayResponseError,
  GatewayResponseTooLargeError,
  type GatewayError,
  type GatewayTimeoutError,
} from '../errors/index.js';
import type { OperationName } from '../operations/table.js';
import { TransportFailure, type HttpExchange } from '../transport/http.js';
import { withoutPersonalValues } from './personal-body.js';

/**
 * The error of a failed exchange, or `undefined` when `thrown` is not the transport's failure.
 *
 * @param timedOut - the call's timeout error (it knows which limit ran out, and how the call went)
 */
export function fromTransport(thrown: unknown, operation: OperationName, timedOut: (cause: unknown) => GatewayTimeoutError): GatewayError | undefined {
  if (!(thrown instanceof TransportFailure)) return undefined;
  const { kind, reason, answer } = thrown;
  switch (kind) {
    case 'aborted':
      return GatewayAbortError.of(operation, thrown.cause);
    case 'timeout':
      return timedOut(thrown.cause);
    case 'not-sent':
    case 'maybe-sent':
      return new GatewayConnectionError(
        kind === 'not-sent'
          ? `${operation} could not reach the gateway (${reason}). Check baseUrl and the network.`
          : `${operation}: the connection to the gateway failed (${reason}) after the request may have reached it. Check baseUrl and the network.`,
        { operation, cause: thrown.cause, mayHaveReachedGateway: kind === 'maybe-sent' },
      );
    case 'redirect':
      return new GatewayHttpStatusError(
        `${operation}: the gateway redirected (${reason}${answer?.location ? ` to ${JSON.stringify(answer.location)}` : ''}). Redirects are never followed, so the signed request went nowhere else: check baseUrl (https://, host, path prefix).`,
        { operation, status: answer?.status ?? 0, body: '', headers: answer?.headers },
      );
    case 'unreadable':
      return unexpectedFailure(operation, undefined, thrown.cause);
    case 'too-large':
      return new GatewayResponseTooLargeError(
        `${operation} got a response body larger than maxResponseBytes (${answer?.limit ?? 0} bytes), so it was discarded: a genuine gateway answer is a few kilobytes. Check baseUrl, or raise maxResponseBytes.`,
        answer?.limit ?? 0,
        { operation, status: answer?.status ?? 0, body: withoutPersonalValues(operation, answer?.bodyStart ?? ''), headers: answer?.headers },
      );
  }
}

/**
 * Something other than a GatewayError went wrong judging an attempt (a bug, or a hostile body that broke
 * the parser's limits): the response cannot be trusted, and the request may have been processed.
 */
export function unexpectedFailure(operation: OperationName, http: HttpExchange | undefined, error: unknown): GatewayResponseError {
  const reason = error instanceof Error ? error.message : String(error);
  return new GatewayResponseError(`${operation} got a response that could not be judged (${reason}): it cannot be trusted.`, {
    operation,
    status: http?.status ?? 0,
    body: withoutPersonalValues(operation, http?.body ?? ''),
    headers: http?.headers,
    cause: error,
  });
}
