import { GatewayError, type GatewayErrorOptions } from '../errors/index.js';
import { BEFORE_ANY_RECORD, refusalAdvice, refusalReason, type LEADING_REFUSALS, type Refusals, type TRAILING_REFUSALS } from '../kinds/refusals.js';
import { definitionOf, OPERATION_NAMES, operations, type OperationName } from './table.js';

/** The reasons an operation's row declares (its `refusals`). */
type RowReason<Op extends OperationName> = (typeof operations)[Op] extends { readonly refusals: infer Own } ? keyof Own & string : never;

/**
 * Why the gateway refused a request, as {@link GatewayApiError.reason} reports it: a value a program can branch
 * on, whatever language the gateway answered in. Each operation declares its own refusals (the errors guide
 * lists them with the texts they are read from); every operation may also get `signature_invalid`,
 * `merchant_unknown`, `app_mismatch`, `parameter_invalid`, `system_error` and `database_error`. `unknown` is a
 * refusal none of them describes (read {@link GatewayApiError.msg}).
 *
 * @example
 * ```ts
 * import { GatewayApiError, type GatewayApiErrorReason } from 'payment-gateway-sdk';
 *
 * const retryLater: GatewayApiErrorReason[] = ['system_error', 'database_error'];
 * try {
 *   await client.unifiedOrder(order);
 * } catch (error) {
 *   if (error instanceof GatewayApiError && error.reason === 'way_code_unsupported') return keepForSupport(error); // decided before any order was made: nothing to look up
 *   if (error instanceof GatewayApiError && retryLater.includes(error.reason)) return scheduleRetry(order);
 *   throw error;
 * }
 * ```
 */
export type GatewayApiErrorReason = keyof typeof LEADING_REFUSALS | { [Op in OperationName]: RowReason<Op> }[OperationName] | keyof typeof TRAILING_REFUSALS | 'unknown';

/**
 * The gateway refused the request (`code` other than the success code), e.g. a duplicate `mchOrderNo`.
 * `reason` says what it means in either of the gateway's languages, by the refusals of the operation refused;
 * the message leads with what to do about it there and keeps the gateway's `msg` verbatim.
 *
 * @example
 * ```ts
 * try {
 *   await client.close({ mchOrderNo: 'order-1' });
 * } catch (error) {
 *   if (error instanceof GatewayApiError && error.reason === 'order_not_closable') return client.query({ mchOrderNo: 'order-1' });
 *   throw error;
 * }
 * ```
 */
export class GatewayApiError extends GatewayError {
  static override readonly kind: string = 'GatewayApiError';
  /** The gateway's business code (9999 business error, 10 system, 11 parameter, 12 database, ...). */
  readonly code: number;
  /** The gateway's message, as sent (often Chinese on the reference server). */
  readonly msg: string;
  /** What the refusal means, read from `code` and `msg`: see {@link GatewayApiErrorReason}. */
  readonly reason: GatewayApiErrorReason;

  /**
   * @param options - `operation` picks the operation's own refusals (without it, every operation's, in the table's
   *   order); `advice` replaces the leading sentence that `reason` would give (e.g. a wrong `successCode`)
   */
  constructor(code: number, msg: string, options: GatewayErrorOptions & { advice?: string | undefined } = {}) {
    const own = refusalsOf(options.operation);
    const reason = refusalReason(code, msg, own) as GatewayApiErrorReason;
    const advice = options.advice ?? refusalAdvice(reason, own);
    super(`${advice[0]?.toUpperCase()}${advice.slice(1)}. The gateway answered ${options.operation ?? 'the request'} with code ${code}: ${msg}`, options);
    this.code = code;
    this.msg = msg;
    this.reason = reason;
  }
}

/** The reason of a refusal of `operation` (every operation's rules when it names none of the table). */
export function apiErrorReason(code: number, msg: string, operation?: string): GatewayApiErrorReason {
  return refusalReason(code, msg, refusalsOf(operation)) as GatewayApiErrorReason;
}

/** An operation's own refusals; for anything else, every row's, the first row's first. */
function refusalsOf(operation: string | undefined): Refusals {
  if (operation !== undefined && Object.hasOwn(operations, operation)) return definitionOf(operation as OperationName).refusals ?? {};
  const all: Record<string, Refusals[string]> = {};
  for (const name of OPERATION_NAMES) for (const [reason, rule] of Object.entries(definitionOf(name).refusals ?? {})) all[reason] ??= rule;
  return all;
}

/**
 * Whether a create's refusal proves that nothing was made: decided before any record is stored (the shared checks,
 * or the row's `refusedBeforeRecord`). Any other refusal may answer a repeat of a record made: look the key up.
 */
export function refusedBeforeRecord(operation: OperationName, refusal: GatewayApiError): boolean {
  return (BEFORE_ANY_RECORD as readonly string[]).includes(refusal.reason) || (definitionOf(operation).refusedBeforeRecord?.includes(refusal.reason) ?? false);
}
