import { definitionOf, type OperationName, type ParamsOf, type ResultOf } from '../operations/table.js';
import type { RecoveredOrder, UnifiedOrderParams, UnifiedOrderResult } from '../kinds/payments/schemas.js';
import { recordIds } from './hooks.js';
import type { LogObserver } from './logging.js';
import type { ConfirmOptions, RequestOptions } from './options.js';
import { reissueOrder, type OrderCalls } from './reissue.js';
import type { GatewayResponse, OperationRunner, RunAs } from './runner.js';
import { waitFor, type RecordWait, type StatefulRecord, type WaitOptions } from './wait-for-record.js';

const dataOf = <T>(response: GatewayResponse<T>): T => response.data;

/** What each method of `GatewayClient` does in one line: run a row, a wait or a reissue, its failure logged once. */
export class ClientCalls {
  readonly #runner: OperationRunner;
  readonly #log: LogObserver;

  constructor(runner: OperationRunner, log: LogObserver) {
    this.#runner = runner;
    this.#log = log;
  }

  /** Runs an operation of the table and resolves to what its method resolves to (nothing for close without confirm). */
  call<T>(operation: OperationName, params: unknown, options: ConfirmOptions | undefined): Promise<T> {
    this.#caution(operation, params);
    const pending = this.#logged(operation, params, this.#runner.run<T>(operation, params, options)).then(dataOf);
    return definitionOf(operation).resolves === 'nothing' && options?.confirm !== true ? (pending.then(() => undefined) as Promise<T>) : pending;
  }

  /** Runs an operation by name and resolves to its data with what the wire showed. */
  withResponse<Op extends OperationName>(operation: Op, params: ParamsOf<Op>, options?: RequestOptions): Promise<GatewayResponse<ResultOf<Op>>> {
    this.#caution(operation, params);
    return this.#logged(operation, params, this.#runner.run(operation, params, options));
  }

  /** Waits for a record by its kind's read; its reads are not logged: a transient one does not end the wait. */
  wait<Ids, R extends StatefulRecord>(wait: RecordWait<Ids, R>, ids: Ids, options: WaitOptions<R> | undefined): Promise<R> {
    const read = (params: Ids, requestOptions: RequestOptions) => this.#unlogged<R>(wait.read, params, requestOptions, { purpose: 'wait' });
    return this.#logged(wait.method, ids, this.#runner.traced(wait.method, ids, () => waitFor(wait, read, ids, options)));
  }

  /** Reissues a recovered order; its calls are not logged: a refused close that reissuing handles is no failure. */
  reissue(recovered: RecoveredOrder, params: UnifiedOrderParams, options: RequestOptions | undefined): Promise<UnifiedOrderResult> {
    const calls: OrderCalls = {
      close: (ids, closeOptions, readBack) => this.#unlogged('close', ids, closeOptions, { readBack }),
      query: (ids, queryOptions) => this.#unlogged('query', ids, queryOptions),
      unifiedOrder: (order, createOptions) => this.#unlogged('unifiedOrder', order, createOptions),
    };
    return this.#logged('reissueOrder', params, this.#runner.traced('reissueOrder', params, () => reissueOrder(calls, recovered, params, options)));
  }

  /** Warns of parameters the operation's row finds likely mistaken, before they are sent. */
  #caution(operation: OperationName, params: unknown): void {
    const { caution } = definitionOf(operation);
    if (caution && typeof params === 'object' && params !== null) this.#log.caution(operation, recordIds(params), caution(params as Readonly<Record<string, unknown>>));
  }

  /** A call made inside another one (a wait, a reissue), which logs its own failure: this one's is not logged. */
  #unlogged<T>(operation: OperationName, params: unknown, options: ConfirmOptions | undefined, how?: RunAs): Promise<T> {
    return this.#runner.run<T>(operation, params, options, how).then(dataOf);
  }

  // A call's final error is seen here: no hook sees it (it may come from no attempt: validation, a lookup, the deadline).
  #logged<T>(operation: string, params: unknown, pending: Promise<T>): Promise<T> {
    if (!this.#log.logsFailures) return pending;
    return pending.catch((error: unknown) => {
      this.#log.failed(operation, recordIds(params), error);
      throw error;
    });
  }
}
