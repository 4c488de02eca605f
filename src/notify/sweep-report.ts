/**
 * What a sweep reports: the counts of the orders and refunds it read, their problems, and the one line it logs.
 *
 * @module
 */
import type { UnconfirmedOrder, UnconfirmedRefund } from './sweep-keys.js';
import type { SweptRefund, TrackableRefund } from './sweep-refunds.js';
import { LOG_LEVELS, type LogLevel } from '../util/log-levels.js';

/**
 * Why a sweep did not settle an order: what {@link SweepReport.problems} lists.
 *
 * @example
 * ```ts
 * for (const p of report.problems) log.warn(`${p.kind}: ${p.mchOrderNo} (${p.payOrderId}): ${p.message}`);
 * ```
 */
export interface SweepProblem {
  /**
   * The report field it is counted in (`failed`, `notFound`, `neverMade`, `mismatched`, `tooOld`); or, for an order counted as
   * settled, `forget` (the store could not forget it: the next sweep reads it again) or `warning` (the store's
   * warning about the run, e.g. a Redis lease lost while `onPaid` ran).
   */
  readonly kind: 'failed' | 'notFound' | 'neverMade' | 'mismatched' | 'tooOld' | 'forget' | 'warning';
  /** The tracked order's gateway id; `''` for an order tracked by its `mchOrderNo` alone and not found (yet). */
  readonly payOrderId: string;
  /** The tracked order's number. */
  readonly mchOrderNo: string;
  /** What happened, in English. */
  readonly message: string;
  /** The error, when one was thrown. */
  readonly error?: unknown;
}

/**
 * What one sweep did. Every checked order is counted in exactly one of the fields after `checked`.
 *
 * @example
 * ```ts
 * const report: SweepReport = await processor.sweep({ olderThanMs: 60_000 });
 * metrics.count('orders.fulfilled_by_sweep', report.paid); // > 0 means notifications are being lost
 * if (report.failed + report.notFound + report.mismatched + report.tooOld > 0) alert(report.problems);
 * ```
 */
export interface SweepReport {
  /** Orders read from the gateway in this sweep. */
  readonly checked: number;
  /** Paid orders whose `onPaid` ran in this sweep (their notification was lost or late): now forgotten. */
  readonly paid: number;
  /** Paid orders already processed (by a notification or another sweep): now forgotten. */
  readonly alreadyDone: number;
  /** Orders still open (state 0 or 1), or not found for less than `notFoundGraceMs`: still tracked. */
  readonly open: number;
  /** Orders final and not paid (failed, revoked, refunded, closed; closed now by `closeExpired` too): now forgotten. */
  readonly closed: number;
  /** Orders whose lookup, close, `expect` function, `onPaid` or store failed: still tracked, checked again later. */
  readonly failed: number;
  /** Paid orders another delivery or sweep was processing at that moment: still tracked. */
  readonly busy: number;
  /** Orders the gateway has not known for `notFoundGraceMs`: never fulfilled, still tracked (reported every sweep). */
  readonly notFound: number;
  /**
   * Orders tracked by `mchOrderNo` alone (their `unifiedOrder`'s outcome unknown) that the gateway proved absent
   * (`order_not_found`) at lookups `notFoundGraceMs` apart: never made, **no longer tracked**. Send them again
   * under the same `mchOrderNo` if still wanted (the gateway refuses a duplicate, so nothing is made twice).
   */
  readonly neverMade: number;
  /** The `mchOrderNo` of every order counted in `neverMade`, all of them. */
  readonly neverMadeKeys: readonly string[];
  /** Orders whose signed record is not the tracked order's (for one tracked by `mchOrderNo`, not what was sent), or a paid one that does not match `expect`: never fulfilled, still tracked. */
  readonly mismatched: number;
  /** Paid orders older than the store remembers processed events (Redis `doneTtlMs`): never fulfilled by a sweep, still tracked. */
  readonly tooOld: number;
  /** The orders behind `failed`, `notFound`, `neverMade`, `mismatched` and `tooOld`, the first 100. */
  readonly problems: readonly SweepProblem[];
  /** The tracked refunds this sweep read, counted apart from the orders (every field above counts orders only). */
  readonly refunds: RefundSweepReport;
  /** How long the sweep took. */
  readonly durationMs: number;
}

/**
 * Why a sweep did not settle a refund: what {@link RefundSweepReport.problems} lists.
 *
 * @example
 * ```ts
 * for (const p of report.refunds.problems) log.warn(`${p.kind}: refund ${p.mchRefundNo} (${p.refundOrderId}): ${p.message}`);
 * ```
 */
export interface RefundSweepProblem extends Omit<SweepProblem, 'payOrderId' | 'mchOrderNo'> {
  /** The tracked refund's gateway id; `''` for a refund tracked by its `mchRefundNo` alone and not found (yet). */
  readonly refundOrderId: string;
  /** The tracked refund's number. */
  readonly mchRefundNo: string;
}

/**
 * What one sweep did with tracked refunds ({@link SweepReport.refunds}). Every checked refund is counted in exactly
 * one of the fields after `checked`.
 *
 * @example
 * ```ts
 * const { refunds } = await processor.sweep({ olderThanMs: 60_000 });
 * metrics.count('refunds.settled_by_sweep', refunds.refunded + refunds.refundFailed); // > 0: refund notifications are lost
 * if (refunds.failed + refunds.notFound + refunds.mismatched + refunds.tooOld > 0) alertOnCall(refunds.problems);
 * ```
 */
export interface RefundSweepReport {
  /** Refunds read from the gateway in this sweep. */
  readonly checked: number;
  /** Refunds found succeeded (2) whose `onRefunded` ran in this sweep: now forgotten. */
  readonly refunded: number;
  /** Refunds found failed (3) or closed (4, never notified) whose `onRefundFailed` ran in this sweep: now forgotten. */
  readonly refundFailed: number;
  /** Final refunds already processed (by a notification or another sweep): now forgotten. */
  readonly alreadyDone: number;
  /** Refunds still 0 or 1, or not found for less than `notFoundGraceMs`: left alone, still tracked. */
  readonly open: number;
  /** Refunds whose lookup, `expectRefund` function, handler or store failed: still tracked, checked again later. */
  readonly failed: number;
  /** Final refunds another delivery or sweep was processing at that moment: still tracked. */
  readonly busy: number;
  /** Refunds the gateway has not known (`refund_not_found`) for `notFoundGraceMs`: never acted on, still tracked. */
  readonly notFound: number;
  /**
   * Refunds tracked by `mchRefundNo` alone (their `refundOrder`'s outcome unknown) that the gateway proved absent
   * (`refund_not_found`) at lookups `notFoundGraceMs` apart: never made, **no longer tracked**. Send them again
   * under the same `mchRefundNo` if still wanted (never under a new one).
   */
  readonly neverMade: number;
  /** The `mchRefundNo` of every refund counted in `neverMade`, all of them. */
  readonly neverMadeKeys: readonly string[];
  /** Refunds whose signed record is not the tracked refund's (for one tracked by `mchRefundNo`, not what was sent), or that do not match `expectRefund`: never acted on, still tracked. */
  readonly mismatched: number;
  /** Final refunds older than the store remembers processed events: never acted on by a sweep, still tracked. */
  readonly tooOld: number;
  /** The refunds behind `failed`, `notFound`, `neverMade`, `mismatched` and `tooOld`, the first 100. */
  readonly problems: readonly RefundSweepProblem[];
}

/**
 * The refund side of a sweep, by name: `SweepReport.Refunds` (the counts), `SweepReport.RefundProblem`,
 * `SweepReport.SweptRefund` (what `onRefunded` and `onRefundFailed` receive from a sweep) and
 * `SweepReport.TrackableRefund` (what `processor.track` takes of a refund), and `SweepReport.UnconfirmedOrder` and
 * `SweepReport.UnconfirmedRefund` (what it takes of one whose create's outcome is unknown).
 */
export declare namespace SweepReport {
  export {
    type RefundSweepReport as Refunds,
    type RefundSweepProblem as RefundProblem,
    type SweptRefund as SweptRefund,
    type TrackableRefund as TrackableRefund,
    type UnconfirmedOrder as UnconfirmedOrder,
    type UnconfirmedRefund as UnconfirmedRefund,
  };
}

/** A logger of the processor's options (a `GatewayLogger`, pino, the console): what a sweep logs to. */
export interface SweepLogger {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

const MAX_PROBLEMS = 100;

type Counted = Exclude<keyof SweepReport, 'checked' | 'problems' | 'durationMs' | 'refunds' | 'neverMadeKeys'>;
type RefundCounted = Exclude<keyof RefundSweepReport, 'checked' | 'problems' | 'neverMadeKeys'>;
/** Where one tracked record's outcome is counted and its problem listed: the order's fields, or the refund's. @internal */
export interface Tally<Field extends string> {
  count(field: Field, message?: string, error?: unknown): void;
  note(kind: SweepProblem['kind'], message: string, error?: unknown): void;
}

/** The counts and problems of one sweep, as its checks find them, and then its report. @internal */
export class SweepTallies {
  private checked = 0; // orders; refunds count theirs in refundCounts
  private readonly counts: Record<Counted, number> = { paid: 0, alreadyDone: 0, open: 0, closed: 0, failed: 0, busy: 0, notFound: 0, neverMade: 0, mismatched: 0, tooOld: 0 };
  private readonly refundCounts: Record<RefundCounted | 'checked', number> = { checked: 0, refunded: 0, refundFailed: 0, alreadyDone: 0, open: 0, failed: 0, busy: 0, notFound: 0, neverMade: 0, mismatched: 0, tooOld: 0 };
  private readonly problems: SweepProblem[] = [];
  private readonly refundProblems: RefundSweepProblem[] = [];
  // Unbounded, unlike the problems: a record counted never made is no longer tracked, so its key is reported once only.
  private readonly neverMadeKeys: string[] = [];
  private readonly refundNeverMadeKeys: string[] = [];

  /** Counts one more record read: a refund, or an order. */
  checking(isRefund: boolean): void {
    if (isRefund) this.refundCounts.checked++;
    else this.checked++;
  }

  /** Where a tracked order's outcome is counted. */
  order(ids: Pick<SweepProblem, 'payOrderId' | 'mchOrderNo'>): Tally<Counted> {
    return tallyOf(this.counts, this.problems, ids, this.neverMadeKeys, ids.mchOrderNo);
  }

  /** Where a tracked refund's outcome is counted. */
  refund(ids: Pick<RefundSweepProblem, 'refundOrderId' | 'mchRefundNo'>): Tally<RefundCounted> {
    return tallyOf(this.refundCounts, this.refundProblems, ids, this.refundNeverMadeKeys, ids.mchRefundNo);
  }

  /** The sweep's report, once every check is done. */
  report(durationMs: number): SweepReport {
    const refunds: RefundSweepReport = { ...this.refundCounts, neverMadeKeys: this.refundNeverMadeKeys, problems: this.refundProblems };
    return { checked: this.checked, ...this.counts, neverMadeKeys: this.neverMadeKeys, refunds, problems: this.problems, durationMs };
  }
}

function tallyOf<Field extends string>(fields: Record<Field, number>, listed: object[], ids: object, neverMadeKeys: string[], key: string): Tally<Field> {
  const note = (kind: SweepProblem['kind'], message: string, error?: unknown) => {
    if (listed.length < MAX_PROBLEMS) listed.push({ kind, ...ids, message, ...(error === undefined ? {} : { error }) });
  };
  return {
    note,
    count(field, message, error) {
      fields[field]++;
      if (field === 'neverMade') neverMadeKeys.push(key);
      if (message !== undefined) note(field as SweepProblem['kind'], message, error);
    },
  };
}

/** Logs a sweep's one line: `info`, or `warn` when something needs you. @internal */
export function logSweep({ logger, logLevel }: { readonly logger: SweepLogger | undefined; readonly logLevel: LogLevel | undefined }, report: SweepReport, failure: unknown): void {
  const { problems, neverMadeKeys: _keys, refunds: { problems: refundProblems, neverMadeKeys: _refundKeys, ...refunds }, ...orders } = report;
  // Refunds' counts follow the orders', each named `refunds.<count>`; a sweep that found no refund adds none.
  const fields = { ...orders, ...(refunds.checked > 0 ? Object.fromEntries(Object.entries(refunds).map(([key, value]) => [`refunds.${key}`, value])) : {}) };
  const counted = Object.entries(fields).map(([key, value]) => `${key} ${value}`).join(', ');
  const trouble = needsYou(report) || needsYou(report.refunds) || failure !== undefined;
  if (logLevel !== undefined && LOG_LEVELS.indexOf(logLevel) < LOG_LEVELS.indexOf(trouble ? 'warn' : 'info')) return;
  const neverMade = report.neverMade + report.refunds.neverMade;
  // The keys stay out of the line (the report lists them): it says what the count means for you.
  const resend = neverMade === 0 ? '' : `; ${neverMade} tracked by key alone were never made (the gateway proved them absent): no longer tracked, send them again under the same key if still wanted (report.neverMadeKeys, report.refunds.neverMadeKeys)`;
  const line = `[payment-gateway-sdk] sweep: ${counted}${resend}${failure === undefined ? '' : `; stopped: ${(failure as Error)?.message ?? String(failure)}`}`;
  // The console gets the line alone: the fields repeat it (Node would print them over several lines).
  if (logger === undefined) return trouble ? console.warn(line) : console.info(line);
  if (trouble) logger.warn(line, { ...fields, problems: problems.length + refundProblems.length });
  else logger.info(line, fields);
}

/** Whether the counts say something needs you: a failure, an unknown record, one never made, a mismatch or a record too old. */
const needsYou = (counts: Pick<SweepReport, 'failed' | 'notFound' | 'neverMade' | 'mismatched' | 'tooOld'>): boolean => counts.failed + counts.notFound + counts.neverMade + counts.mismatched + counts.tooOld > 0;
