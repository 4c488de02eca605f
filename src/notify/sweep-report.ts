/**
 * What a sweep reports: the counts of the orders and refunds it read, their problems, and the one line it logs.
 *
 * @module
 */
import type { notificationKinds } from './kinds.js';
import { trackedKinds, type TrackedKind } from './sweep-kinds.js';
import type { SweepLogger } from './sweep-settings.js';
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
export interface SweepReport extends KindReports {
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
  /** How long the sweep took. */
  readonly durationMs: number;
}

type Kinds = typeof notificationKinds;
type TrackingOf<Name extends keyof Kinds> = NonNullable<Kinds[Name]['tracking']>;

/** Why a sweep did not settle a record of a tracked kind, named by the ids its row reads it by (`refundOrderId`, `mchRefundNo`). */
export type KindSweepProblem<Name extends keyof Kinds> = Omit<SweepProblem, 'payOrderId' | 'mchOrderNo'> & { readonly [Id in TrackingOf<Name>['by'][number]]: string };

/** The counts every tracked kind's report has, besides one per handler. */
export interface KindSweepCounts {
  /** Records read from the gateway in this sweep. */
  readonly checked: number;
  /** Final records already processed (by a notification or another sweep): now forgotten. */
  readonly alreadyDone: number;
  /** Records still open, or not found for less than `notFoundGraceMs`: left alone, still tracked. */
  readonly open: number;
  /** Records whose lookup, expectation function, handler or store failed: still tracked, checked again later. */
  readonly failed: number;
  /** Final records another delivery or sweep was processing at that moment: still tracked. */
  readonly busy: number;
  /** Records the gateway has not known (its read's not-found refusal, e.g. `refund_not_found`) for `notFoundGraceMs`: never acted on, still tracked. */
  readonly notFound: number;
  /**
   * Records tracked by your number alone (their create's outcome unknown) that the gateway proved absent at lookups
   * `notFoundGraceMs` apart: never made, **no longer tracked**. Send them again under the same number if still wanted
   * (never under a new one).
   */
  readonly neverMade: number;
  /** Your number of every record counted in `neverMade`, all of them. */
  readonly neverMadeKeys: readonly string[];
  /** Records whose signed record is not the tracked one (for one tracked by its number, not what was sent), or that do not match the expectation: never acted on, still tracked. */
  readonly mismatched: number;
  /** Final records older than the store remembers processed events: never acted on by a sweep, still tracked. */
  readonly tooOld: number;
}

/**
 * What one sweep did with the tracked records of a kind, derived from its row: `checked`, a count per handler
 * (`onRefunded` in `refunded`, `onTransferred` in `transferred`: the final records whose handler ran in this sweep, now
 * forgotten), the outcomes every kind has ({@link KindSweepCounts}), and its problems (the first 100). Every checked record
 * is counted in exactly one of the counts after `checked`.
 */
export type KindSweepReport<Name extends keyof Kinds> = KindSweepCounts & { readonly [Field in HandlerCount<Name>]: number } & { readonly problems: readonly KindSweepProblem<Name>[] };
type HandlerCount<Name extends keyof Kinds> = keyof Kinds[Name]['handlers'] extends infer Option ? (Option extends `on${infer Rest}` ? Uncapitalize<Rest> : never) : never;

/** Each other tracked kind's report, under its row's `reportedIn` (`refunds`, `transfers`), counted apart from the orders. */
type KindReports = { readonly [Name in keyof Kinds as Kinds[Name]['tracking'] extends { readonly reportedIn: infer Field extends string } ? Field : never]: KindSweepReport<Name> };

const MAX_PROBLEMS = 100;

/** The report field a handler's run is counted in: `onPaid` in `paid`, `onRefundFailed` in `refundFailed`. @internal */
export const ranField = (option: string): string => `${option.charAt(2).toLowerCase()}${option.slice(3)}`;

/**
 * A kind's counted fields, in the report's order: `checked`, a field per handler, then the outcomes every kind has;
 * `closed` for a kind with a final state no handler takes (an order failed or closed), counted and forgotten.
 */
function countedFields(kind: TrackedKind): readonly string[] {
  const { open, states } = kind.tracking;
  const handled = Object.values(kind.handlers).flatMap((handler) => handler?.states ?? []);
  const closes = Object.values(states).some((state) => !open.includes(state) && !handled.includes(state));
  return ['checked', ...Object.keys(kind.handlers).map(ranField), 'alreadyDone', 'open', ...(closes ? ['closed'] : []), 'failed', 'busy', 'notFound', 'neverMade', 'mismatched', 'tooOld'];
}

/** Where one tracked record's outcome is counted and its problem listed: its kind's fields. @internal */
export interface Tally<Field extends string> {
  count(field: Field, message?: string, error?: unknown): void;
  note(kind: SweepProblem['kind'], message: string, error?: unknown): void;
}

/** The outcomes a check counts: a handler's field (`paid`), or one every kind has. @internal */
export type Outcome = 'alreadyDone' | 'open' | 'closed' | 'failed' | 'busy' | 'notFound' | 'neverMade' | 'mismatched' | 'tooOld' | (string & {});

/** One kind's counts, problems and keys never made, in a sweep. */
interface KindCounts {
  readonly kind: TrackedKind;
  readonly counts: Record<string, number>;
  readonly problems: object[];
  // Unbounded, unlike the problems: a record counted never made is no longer tracked, so its key is reported once only.
  readonly neverMadeKeys: string[];
}

/** The counts and problems of one sweep, per tracked kind, as its checks find them, and then its report. @internal */
export class SweepTallies {
  private readonly kinds: ReadonlyMap<string, KindCounts>;

  constructor(kinds: readonly TrackedKind[]) {
    this.kinds = new Map(kinds.map((kind) => [kind.name, { kind, counts: Object.fromEntries(countedFields(kind).map((field) => [field, 0])), problems: [], neverMadeKeys: [] }]));
  }

  /** Counts one more record of `kind` read. */
  checking(kind: TrackedKind): void {
    this.of(kind).counts['checked']!++;
  }

  /** Where the outcome of a tracked record of `kind`, named by its ids (its row's `by`), is counted. */
  record(kind: TrackedKind, ids: Readonly<Record<string, string>>): Tally<Outcome> {
    const { counts, problems, neverMadeKeys } = this.of(kind);
    const note = (problem: SweepProblem['kind'], message: string, error?: unknown) => {
      if (problems.length < MAX_PROBLEMS) problems.push({ kind: problem, ...ids, message, ...(error === undefined ? {} : { error }) });
    };
    return {
      note,
      count(field, message, error) {
        counts[field] = (counts[field] ?? 0) + 1;
        if (field === 'neverMade') neverMadeKeys.push(ids[kind.tracking.by[1]]!);
        if (message !== undefined) note(field as SweepProblem['kind'], message, error);
      },
    };
  }

  /** How many records of each kind were read, as an abort names them: `3 orders and 1 refunds`. */
  checked(): string {
    return [...this.kinds.values()].map(({ kind, counts }) => `${counts['checked']} ${kind.tracking.noun}s`).join(' and ');
  }

  /**
   * The sweep's report, once every check is done: the kind without a `reportedIn` in the report's own fields, each
   * other under its field (`refunds`), each with its keys never made and its problems.
   */
  report(durationMs: number): SweepReport {
    const all = [...this.kinds.values()];
    const own = all.find(({ kind }) => kind.tracking.reportedIn === undefined);
    const nested = Object.fromEntries(all.filter((entry) => entry !== own).map(({ kind, counts, neverMadeKeys, problems }) => [kind.tracking.reportedIn, { ...counts, neverMadeKeys, problems }]));
    return { ...own?.counts, neverMadeKeys: own?.neverMadeKeys ?? [], ...nested, problems: own?.problems ?? [], durationMs } as unknown as SweepReport;
  }

  private of(kind: TrackedKind): KindCounts {
    return this.kinds.get(kind.name)!;
  }
}

/** The fields of the report that hold a kind's own report (`refunds`). */
const nestedFields = (): readonly string[] => trackedKinds.flatMap((kind) => (kind.tracking.reportedIn === undefined ? [] : [kind.tracking.reportedIn]));

/** Logs a sweep's one line: `info`, or `warn` when something needs you. @internal */
export function logSweep({ logger, logLevel }: { readonly logger: SweepLogger | undefined; readonly logLevel: LogLevel | undefined }, report: SweepReport, failure: unknown): void {
  const nested = nestedFields();
  const reports = report as unknown as Readonly<Record<string, unknown>>;
  const { problems: _problems, neverMadeKeys: _keys, ...rest } = reports;
  const own = Object.fromEntries(Object.entries(rest).filter(([key]) => !nested.includes(key)));
  const kinds = [reports, ...nested.map((field) => reports[field] as Readonly<Record<string, unknown>>)] as unknown as readonly Counts[];
  // Each other kind's counts follow the own ones, each named `<field>.<count>` (`refunds.checked`); a sweep that found none of it adds none.
  const fields = {
    ...own,
    ...Object.fromEntries(
      nested.flatMap((field) => {
        const { problems: _problems, neverMadeKeys: _neverMade, ...counts } = reports[field] as Counts;
        return counts.checked > 0 ? Object.entries(counts).map(([key, value]) => [`${field}.${key}`, value]) : [];
      }),
    ),
  };
  const counted = Object.entries(fields).map(([key, value]) => `${key} ${value}`).join(', ');
  const trouble = kinds.some(needsYou) || failure !== undefined;
  if (logLevel !== undefined && LOG_LEVELS.indexOf(logLevel) < LOG_LEVELS.indexOf(trouble ? 'warn' : 'info')) return;
  const neverMade = kinds.reduce((sum, counts) => sum + counts.neverMade, 0);
  const keys = ['report.neverMadeKeys', ...nested.map((field) => `report.${field}.neverMadeKeys`)].join(', ');
  // The keys stay out of the line (the report lists them): it says what the count means for you.
  const resend = neverMade === 0 ? '' : `; ${neverMade} tracked by key alone were never made (the gateway proved them absent): no longer tracked, send them again under the same key if still wanted (${keys})`;
  const line = `[payment-gateway-sdk] sweep: ${counted}${resend}${failure === undefined ? '' : `; stopped: ${(failure as Error)?.message ?? String(failure)}`}`;
  // The console gets the line alone: the fields repeat it (Node would print them over several lines).
  if (logger === undefined) return trouble ? console.warn(line) : console.info(line);
  if (trouble) logger.warn(line, { ...fields, problems: kinds.reduce((sum, counts) => sum + counts.problems.length, 0) });
  else logger.info(line, fields);
}

/** The counts every kind's report has. */
type Counts = Pick<SweepReport, 'checked' | 'failed' | 'notFound' | 'neverMade' | 'mismatched' | 'tooOld' | 'problems' | 'neverMadeKeys'>;

/** Whether the counts say something needs you: a failure, an unknown record, one never made, a mismatch or a record too old. */
const needsYou = (counts: Counts): boolean => counts.failed + counts.notFound + counts.neverMade + counts.mismatched + counts.tooOld > 0;
