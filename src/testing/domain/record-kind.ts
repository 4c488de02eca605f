/**
 * A record kind of the mock, declared once: its states, key and ids, modes, decisions, expiry, refusals in the
 * reference's order, effects on other records, and how its controls, CLI verbs and dashboard table show it. The
 * generic desk (`record-desk.ts`) runs any declaration; the control routes, the dashboard and the CLI read the list
 * of declared kinds (`kinds.ts`). Adding a kind to the mock is writing one of these.
 *
 * @module
 */
import type { ZodMiniType } from 'zod/mini';
import type { OperationName } from '../../operations/table.js';
import type { AcceptedRequest } from './accepted-request.js';
import type { SimulatedClock } from './clock.js';
import type { MockMerchant } from './merchants.js';

/**
 * What every record the generic desk keeps has: its merchant, creation time and where it is notified; its state is
 * the number in its kind's `stateField` ({@link MockRecord}'s `state` unless declared).
 */
export interface MockRecordBase {
  readonly mchNo: string;
  readonly appId: string;
  readonly createdAt: number;
  readonly notifyUrl?: string | undefined;
  errCode?: string | undefined;
  errMsg?: string | undefined;
}

/** A record of a kind that keeps its state in `state`, as most do. */
export interface MockRecord extends MockRecordBase {
  state: number;
}

/** The create and query operations of a kind, rows of the operation table. */
export interface MockKindOperations {
  readonly create: OperationName;
  readonly query: OperationName;
}

/**
 * What a kind's world may read of another kind's desk (refunds' of the orders'): the live records, found as the
 * query finds them (refused as it refuses), by a control's reference, or all.
 */
export interface MockRecordReader<R> {
  /** The query's lookup: the merchant's record by its id (preferred) or key; a refusal when none. */
  find(app: MockMerchant, params: Readonly<Record<string, string | number>>): R;
  /** A record by its id, or by a key only one merchant uses. */
  lookup(ref: string): R | undefined;
  /** The record a test control names, which must exist (an `Error` naming `control` otherwise). */
  resolve(ref: string, control: string): R;
  /** Every record, live, oldest first. */
  live(): readonly R[];
}

/** The gateway's parts a kind's hooks may use (its world is made from them once per gateway). */
export interface MockParts {
  readonly clock: SimulatedClock;
  /** A record's fields as its kind's notification carries them, signed now with its merchant's secret. */
  signed(kind: MockRecordKind, record: MockRecordBase): Record<string, string>;
  /** The desk of a kind declared before this one (desks are built in `MOCK_KINDS`' order), by its name. */
  desk<R>(name: string): MockRecordReader<R>;
}

/** Where a decision leads: the state, and what it sets on the record (a failure's texts, a time). */
export interface MockTransition<R> {
  readonly to: number;
  /** A failure: `errCode`/`errMsg` from the decision, else these defaults. */
  readonly failure?: { readonly errCode: string; readonly errMsg: string } | undefined;
  /** A field set to the simulated clock's time, e.g. `successTime`. */
  readonly stamp?: (keyof R & string) | undefined;
  /** The dashboard button's style: `primary`, `danger` or plain. */
  readonly button?: 'primary' | 'danger' | '' | undefined;
  /** For the CLI's usage: what the decision does, e.g. `a held refund succeeds (state 2; ...)`. */
  readonly does: string;
  /** What a record that took it is, e.g. `refunded`, as the CLI says of a mode: `coming refunds are refunded (state 2) at once`. */
  readonly past: string;
}

/** The fields of `R` that hold a number: where a kind may keep its state. */
export type MockNumberField<R> = { [F in keyof R & string]-?: NonNullable<R[F]> extends number ? F : never }[keyof R & string];

/**
 * A kind whose records step on, e.g. settlements (pending, processing, then completed): `progress{Label}(ref, to?)`
 * takes the decision `to`, or by default the next one of the record's state; its route is
 * `POST /_mock/{plural}/{key}/progress` `{ to? }`, and the dashboard shows one button in place of the decisions'.
 */
export interface MockSteps<Decision extends string = string> {
  /** The decision each open state steps on by, when none is given. */
  readonly next: { readonly [state: number]: Decision };
  /** The dashboard's button, e.g. `Progress`. */
  readonly button: string;
  /** How the control route describes it. */
  readonly does: string;
}

/** One call to a kind's create: the request, the kind's world and its records so far (refusal checks read them). */
export interface MockCreateCall<R, World> {
  readonly request: AcceptedRequest;
  readonly world: World;
  readonly records: readonly R[];
  /** Whether the merchant has a record under this key already (the kind's key is unique per merchant): the desk's index, not a scan. */
  taken(key: string): boolean;
  readonly now: number;
  /** The origin (and base path) the gateway is reached by, for links in an answer (a cashier's). */
  readonly origin: string;
}

/**
 * A decision under a name of its own, e.g. payments' `payOrder(ref)` (the decision `pay`) and `failOrder(ref, failure)`:
 * a facade method of its `name`, the route `POST /_mock/{plural}/{id}/{path}`, a CLI verb when it declares one, and the
 * dashboard's button. A decision with an alias has no `{kind}-{decision}` verb: the alias's verb is it.
 */
export interface MockDecisionAlias<Decision extends string = string> {
  readonly name: string;
  readonly decision: Decision;
  readonly path: string;
  /** The failure's texts it takes (`errCode`, `errMsg`), checked by `bodySchema`; none without one. */
  readonly argument?: string | undefined;
  readonly body?: string | undefined;
  readonly bodySchema?: ZodMiniType | undefined;
  readonly does: string;
  /** The CLI's verb, unprefixed (`pay`): its help is the decision's `does`. */
  readonly verb?: string | undefined;
  // A method, so that its argument's type is the facade method's (`failOrder(ref, failure?)`).
  texts?(argument: never): { readonly errCode?: string | undefined; readonly errMsg?: string | undefined };
}

/** What a control on one record may use: the kind's world, the simulated clock's time, the record's signed fields. */
export interface MockRecordControlCall<World> {
  readonly world: World;
  readonly now: number;
  /** The control's facade name, for its messages. */
  readonly control: string;
  /** The record's fields as its notification carries them, signed now with its merchant's secret (a payer's `returnUrl` redirect). */
  signed(): Record<string, string>;
}

/**
 * A control on one record beyond the decisions, e.g. payments' `setOrderFee(ref, fee)`, `expireOrder(ref)`: a facade
 * method of its `name`; with `route`, `POST /_mock/{plural}/{id}/{path}` whose body is `{ [member]: argument }` (or
 * none); with `verb`, a CLI verb. `open`: only an open record, refused as a decision is; expiry runs after it.
 */
export interface MockRecordControl<R, World> {
  readonly name: string;
  readonly path: string;
  /** The name of its one argument, if it takes one, e.g. `mchFeeAmount`, and how an invalid one is described. */
  readonly argument?: string | undefined;
  readonly invalid?: string | undefined;
  readonly bodySchema?: ZodMiniType | undefined;
  readonly open?: boolean | undefined;
  readonly does: string;
  /** Its route: the body member that is its argument, or none. */
  readonly route?: { readonly member?: string | undefined } | undefined;
  /** Its CLI verb (`expire`, `order-fee ORDER --fee N`), unprefixed. */
  readonly verb?: MockRecordControlVerb | undefined;
  /** Does it on the live record; the record itself is answered as a copy. Its parameters typed: the facade's method takes them. */
  run(record: R, argument: never, call: MockRecordControlCall<World>): unknown;
}

/** The CLI's verb of a control on one record: its name, help, the option its argument is given by, what its line adds. */
export interface MockRecordControlVerb {
  readonly name: string;
  /** Its line in `mock <verb> --help`, and what it does in a few words for the command's usage. */
  readonly help: string;
  readonly summary: string;
  /** The option (`fee`), its value's placeholder (`N`) and help; a whole number is sent as a number. */
  readonly option?: { readonly name: string; readonly value: string; readonly help: string } | undefined;
  /** What the printed line adds after the record's, from the control's answer. */
  readonly said?: ((answer: Readonly<Record<string, unknown>>) => string) | undefined;
}

/** One more operation of a kind on one of its records (payments' `close`), found as the query finds it. */
export interface MockActionCall<World> {
  readonly world: World;
  readonly now: number;
  /** The `closeRacesPayer` fault struck this request. */
  readonly payerFirst: boolean;
}

/** A dashboard column: a record field shown as code, text, an amount (with its currency field) or a time. */
export type MockColumn<R> =
  | { readonly title: string; readonly field: keyof R & string; readonly as: 'code' | 'time' | 'state' }
  | { readonly title: string; readonly field: keyof R & string; readonly as: 'text'; readonly cell?: string | undefined }
  | { readonly title: string; readonly field: keyof R & string; readonly as: 'amount'; readonly currency: keyof R & string };

/**
 * The CLI's verb of a kind's control, `mock <name>-<path>`: its target is one member of the control's argument, given
 * as the verb's argument (`positional`) or by the option of another member (`ifCode`: `--if-code CODE`).
 */
export interface MockControlVerb {
  /** The member given as the verb's argument: its name, and what it is (for the message when it is missing). */
  readonly positional: { readonly member: string; readonly is: string };
  /** The other members, each an option: its value's placeholder, what the CLI calls its target, its help, an example value. */
  readonly options: { readonly [member: string]: { readonly value: string; readonly names: string; readonly help: string; readonly example: string } };
  /** The option that runs the other control of the same path instead (it undoes this one), and its help. */
  readonly undo?: { readonly option: string; readonly help: string } | undefined;
  /** The verb's lines in `mock <verb> --help`, and what it does in a few words for the command's usage. */
  readonly help: readonly string[];
  readonly summary: string;
}

/** One control of a kind beyond mode and settle, e.g. refunds' `refuseRefunds`: a route and the facade method it calls. */
export interface MockKindControl<World> {
  /** The facade's method, e.g. `refuseRefunds`. */
  readonly name: string;
  /** The name of its one argument, e.g. `scope`. */
  readonly argument: string;
  readonly method: 'POST' | 'DELETE';
  /** Below `/_mock/{plural}/`. */
  readonly path: string;
  readonly body: string;
  readonly does: string;
  /** The CLI's verb that runs it (`mock <name>-<path>`), if any. */
  readonly verb?: MockControlVerb | undefined;
  /** What the CLI prints once it ran, of its target as the CLI names it (`order order-1`). */
  readonly said?: ((target: string) => string) | undefined;
  /** Checks the body (and the facade method's argument). */
  readonly bodySchema: ZodMiniType;
  /** Does it on the kind's world; the answer is the route's. Its parameters typed: the facade's method takes its argument's type from them. */
  // A method, so that a control of a given argument type is a control of any.
  run(world: World, argument: never, control: string): unknown;
}

/** A kind's own refusal texts, by name: a text, or one made from the request's value (e.g. a duplicate key). */
export type MockKindMessages = { readonly [name: string]: string | ((value: string) => string) };

/** What the notifier reads of a notification kind's declaration: its schema, an object whose shape names the fields. */
export interface MockNotificationDeclaration {
  readonly schema: { readonly def: { readonly shape: object } };
}

/**
 * A record kind of the mock. `R` is the record as the desk holds it, `World` the kind's own state and the gateway's
 * parts it reads, `Mode` and `Decision` the names of its modes and decisions.
 */
export interface MockRecordKind<
  R extends MockRecordBase = MockRecordBase,
  World = unknown,
  Mode extends string = string,
  Decision extends string = string,
  Name extends string = string,
  Plural extends string = string,
  Ops extends MockKindOperations = MockKindOperations,
  Label extends string = string,
  Key extends keyof R & string = keyof R & string,
  Controls extends readonly MockKindControl<World>[] = readonly MockKindControl<World>[],
  Id extends keyof R & string = keyof R & string,
  Messages extends MockKindMessages = MockKindMessages,
  Steps extends MockSteps<Decision> | undefined = MockSteps<Decision> | undefined,
  Aliases extends readonly MockDecisionAlias<Decision>[] = readonly MockDecisionAlias<Decision>[],
  RecordControls extends readonly MockRecordControl<R, World>[] = readonly MockRecordControl<R, World>[],
  Noun extends string = string,
> {
  /** e.g. `refund`: the notification's `kind`, the dashboard row's `data-refund`, the CLI verbs' prefix. */
  readonly name: Name;
  /** What the facade and the messages call a record (`order(ref)`, `no order with ...`); its `name` unless declared. */
  readonly noun?: Noun | undefined;
  /** e.g. `refunds`: the state's member, the control routes' segment, the dashboard's section. */
  readonly plural: Plural;
  /** e.g. `Refund`: the facade's names (`setRefundMode`, `settleRefund`). */
  readonly label: Label;
  /** The create and query operations the desk answers. */
  readonly operations: Ops;
  /** Operations beyond create and query, each on the record found as the query finds it (payments' `close`). */
  readonly actions?: { readonly [Op in OperationName]?: (record: R, call: MockActionCall<World>) => Readonly<Record<string, unknown>> } | undefined;
  /** An operation's answer when it is not the fields of its declared result (payments' `orderState`, transactions as decimal text). */
  readonly answers?: { readonly create?: ((record: R) => Record<string, unknown>) | undefined; readonly query?: ((record: R) => Record<string, unknown>) | undefined } | undefined;
  /** The fields a notification carries when not its notification kind's schema's (`reqTime` added when signed). */
  readonly notifiedFields?: readonly (keyof R & string)[] | undefined;
  /** The state names by number (the kind's enum), the open ones (a decision or expiry may move them), the notified ones. */
  readonly states: {
    readonly names: Readonly<Record<string, number>>;
    readonly open: readonly number[];
    readonly notified: readonly number[];
    /** The state a record held by a mode waits in. */
    readonly held: number;
  };
  /**
   * The notification kind it is notified as (`kinds/<kind>/declaration.ts`): a notification carries the fields its
   * schema declares (`reqTime` added when signed); without it, the fields of the query's declared result.
   */
  readonly notification?: MockNotificationDeclaration | undefined;
  /** The record's field its state is in: `state` unless declared (settlements' is `status`). */
  readonly stateField?: MockNumberField<R> | undefined;
  /** The gateway's id of a record (`refundOrderId`) and the merchant's key (`mchRefundNo`, unique per merchant). */
  readonly id: Id;
  readonly key: Key;
  /** The kind's own refusal texts, by name: `MOCK_MESSAGES` lists them with the gateway's others (`messages.ts`). */
  readonly messages?: Messages | undefined;
  /** The query's refusal of a record the merchant does not have. */
  readonly notFound: string;
  /** The query's refusal when it gives neither the id nor the key; without it, a record found by neither is not found. */
  readonly missingRefs?: string | undefined;
  /** The create's refusals, in the reference's order: each returns its text, or nothing to let the request on. */
  readonly refusals: readonly ((call: MockCreateCall<R, World>) => string | undefined)[];
  /**
   * The record a create stores once no refusal applies, its id made from `sequence` (unique in the process);
   * `interrupted`: left in 0 (`created`) or in processing, undecided.
   */
  create(call: MockCreateCall<R, World>, sequence: string, interrupted: 'created' | 'processing' | undefined): R;
  /**
   * The modes a test sets, each leading to a decision at once, or none (held until settled). The first is the default.
   * A kind may declare none (`{}`): then it has no `set{Label}Mode`, no mode route and no mode verb.
   */
  readonly modes: { readonly [M in Mode]: NoInfer<Decision> | undefined };
  /**
   * A create decided by the world rather than a mode (payments': a declined payment, a barcode paid at once): the
   * decision taken at once, or nothing to leave the record as `create` made it. Not asked when `interrupted`.
   */
  readonly decide?: ((record: R, call: MockCreateCall<R, World>) => { readonly to: NoInfer<Decision>; readonly errCode?: string | undefined; readonly errMsg?: string | undefined } | undefined) | undefined;
  /** Decisions under names of their own (`payOrder`), each a facade method, a route and a verb. */
  readonly aliases?: Aliases | undefined;
  /** Controls on one record (`setOrderFee`, `expireOrder`), each a facade method, and a route and a verb when declared. */
  readonly recordControls?: RecordControls | undefined;
  readonly decisions: { readonly [D in Decision]: MockTransition<R> };
  /** Records that step on from state to state (`progress{Label}`), each step a decision. */
  readonly steps?: Steps;
  /**
   * A record still open this long after its creation (`afterMs`), or past its own time (`at`, e.g. an order's
   * `expiredTime`), moves to `to` (notified only when `to` is).
   */
  readonly expiry?: { readonly afterMs: number; readonly to: number } | { readonly at: (record: R) => number; readonly to: number } | undefined;
  /** The kind's world, made once per gateway from its parts. */
  world(parts: MockParts): World;
  /** After a record changed state (a decision, never the expiry), its effect on other records, e.g. the refunded order. */
  readonly effect?: ((record: R, world: World, records: readonly R[]) => void) | undefined;
  /** Controls beyond mode and settle, each a route and a facade method of its `name` (an alias of `control(kind, name, argument)`). */
  readonly controls?: Controls | undefined;
  /** The dashboard's table: its columns, then the decisions' buttons while a record is open. */
  readonly columns: readonly MockColumn<R>[];
  /**
   * The dashboard and `mock list` show its records in a section of their own rather than the generic table (payments':
   * the Orders, first, with the records that belong to each order); the pages read them from the desk all the same.
   */
  readonly ownSection?: boolean | undefined;
  /**
   * A record belongs to an order by `field`: the dashboard and `mock list` show it under the order, the dashboard with
   * the sum of `amount` of those in `sumState`, what they took from the order (a division shares the rest).
   */
  readonly ofOrder?: { readonly field: keyof R & string; readonly amount: keyof R & string; readonly currency: keyof R & string; readonly sumState: number } | undefined;
  /** How the control routes describe the mode and the decisions. */
  readonly modeDoes: string;
  readonly settleDoes: string;
}

/**
 * Declares a record kind of the mock, of records `R` and world `World`: checks that every mode leads to a declared
 * decision, every field named is one of `R`'s, and keeps the names, modes and decisions as literal types.
 *
 * @example
 * ```ts
 * export const refundKind = defineMockRecordKind<MockRefund, RefundWorld>()({ name: 'refund', plural: 'refunds', label: 'Refund', ... });
 * ```
 */
export function defineMockRecordKind<R extends MockRecordBase, World>() {
  return <
    const Mode extends string,
    const Decision extends string,
    const Name extends string,
    const Plural extends string,
    const Ops extends MockKindOperations,
    const Label extends string,
    const Key extends keyof R & string,
    const Controls extends readonly MockKindControl<World>[] = readonly [],
    const Id extends keyof R & string = keyof R & string,
    const Messages extends MockKindMessages = Record<never, never>,
    const Steps extends MockSteps<NoInfer<Decision>> | undefined = undefined,
    const Aliases extends readonly MockDecisionAlias<NoInfer<Decision>>[] = readonly [],
    const RecordControls extends readonly MockRecordControl<R, World>[] = readonly [],
    const Noun extends string = Name,
  >(
    kind: MockRecordKind<R, World, Mode, Decision, Name, Plural, Ops, Label, Key, Controls, Id, Messages, Steps, Aliases, RecordControls, Noun>,
  ): MockRecordKind<R, World, Mode, Decision, Name, Plural, Ops, Label, Key, Controls, Id, Messages, Steps, Aliases, RecordControls, Noun> => kind;
}

/** What a mock kind reads of its notification kind's declaration (`kinds/<kind>/declaration.ts`). */
interface DeclaredNotification<Name extends string, Read extends OperationName, Id extends string, No extends string, Plural extends string> {
  readonly name: Name;
  readonly schema: MockNotificationDeclaration['schema'];
  readonly tracking: {
    readonly read: Read;
    readonly by: readonly [Id, No];
    readonly states: Readonly<Record<string, number>>;
    readonly open: readonly number[];
    readonly reportedIn?: Plural | undefined;
  };
  readonly defaultExpect?: { readonly state?: unknown } | undefined;
}

/**
 * The parts of a mock kind its declaration already says, so that the desk cannot disagree with the client: its name
 * and plural (the sweep report's field), the notification itself (the fields it carries), its query (the tracking's
 * read), its id and key (what the read is by), its states and open ones (the tracking's), the notified ones (the
 * states the gateway notifies: the `defaultExpect`); `own` adds its create and the state a held record waits in, and
 * for a kind whose tracking reports in no field of its own (payments), its `plural` and the `noun` of a record.
 */
export function declaredBy<
  const Name extends string,
  const Read extends OperationName,
  const Id extends string,
  const No extends string,
  const Plural extends string,
  const Create extends OperationName,
  const OwnPlural extends string = Plural,
  const Noun extends string = Name,
>(notification: DeclaredNotification<Name, Read, Id, No, Plural>, own: { readonly create: Create; readonly held: number; readonly plural?: OwnPlural; readonly noun?: Noun }) {
  const { tracking } = notification;
  const plural = own.plural ?? tracking.reportedIn;
  if (plural === undefined) throw new TypeError(`the ${notification.name} kind names no plural (its tracking's reportedIn, or its own)`);
  const notified = [notification.defaultExpect?.state].flat().filter((state): state is number => typeof state === 'number');
  return {
    name: notification.name,
    noun: (own.noun ?? notification.name) as Noun,
    notification,
    plural: plural as OwnPlural,
    operations: { create: own.create, query: tracking.read },
    id: tracking.by[0],
    key: tracking.by[1],
    states: { names: tracking.states, open: tracking.open, notified, held: own.held },
  };
}

/**
 * What the control routes, the dashboard and the CLI read of a kind: its names, states, modes and decisions, own
 * controls and columns; any declared kind is one.
 */
export interface MockKindView {
  readonly name: string;
  readonly noun?: string | undefined;
  readonly plural: string;
  readonly label: string;
  readonly states: MockRecordKind['states'];
  readonly stateField?: string | undefined;
  readonly steps?: MockSteps | undefined;
  readonly id: string;
  readonly key: string;
  readonly modes: { readonly [mode: string]: string | undefined };
  readonly decisions: { readonly [decision: string]: MockTransition<never> };
  readonly controls?: readonly MockKindControl<never>[] | undefined;
  readonly aliases?: readonly MockDecisionAlias[] | undefined;
  readonly recordControls?: readonly MockRecordControl<never, never>[] | undefined;
  readonly columns: readonly MockColumn<never>[];
  readonly ownSection?: boolean | undefined;
  readonly ofOrder?: { readonly field: string; readonly amount: string; readonly currency: string; readonly sumState: number } | undefined;
  readonly modeDoes: string;
  readonly settleDoes: string;
}

/** The record type of a kind. */
export type RecordOf<K> = K extends MockRecordKind<infer R, infer _World, infer _Mode, infer _Decision, infer _Name, infer _Plural, infer _Ops, infer _Label, infer _Key, infer _Controls, infer _Id, infer _Messages, infer _Steps, infer _Aliases, infer _RecordControls, infer _Noun> ? R : never;
/** The modes of a kind. */
export type ModeOf<K> = K extends MockRecordKind<infer _R, infer _World, infer Mode, infer _Decision, infer _Name, infer _Plural, infer _Ops, infer _Label, infer _Key, infer _Controls, infer _Id, infer _Messages, infer _Steps, infer _Aliases, infer _RecordControls, infer _Noun> ? Mode : never;
/** The decisions of a kind. */
export type DecisionOf<K> = K extends MockRecordKind<infer _R, infer _World, infer _Mode, infer Decision, infer _Name, infer _Plural, infer _Ops, infer _Label, infer _Key, infer _Controls, infer _Id, infer _Messages, infer _Steps, infer _Aliases, infer _RecordControls, infer _Noun> ? Decision : never;

/** The world of a kind. */
export type WorldOf<K> = K extends MockRecordKind<infer _R, infer World, infer _Mode, infer _Decision, infer _Name, infer _Plural, infer _Ops, infer _Label, infer _Key, infer _Controls, infer _Id, infer _Messages, infer _Steps, infer _Aliases, infer _RecordControls, infer _Noun> ? World : never;
/** Whether a kind's records step on (`progress{Label}`). */
export type StepsOf<K> = K extends MockRecordKind<infer _R, infer _World, infer _Mode, infer _Decision, infer _Name, infer _Plural, infer _Ops, infer _Label, infer _Key, infer _Controls, infer _Id, infer _Messages, infer Steps, infer _Aliases, infer _RecordControls, infer _Noun> ? Steps : never;

/** What the facade and messages call a kind's record: its `noun`, else its name. */
export const nounOf = (kind: { readonly name: string; readonly noun?: string | undefined }): string => kind.noun ?? kind.name;
/** Whether a kind has modes (a kind decided by its world may have none). */
export const hasModes = (kind: { readonly modes: object }): boolean => Object.keys(kind.modes).length > 0;
/** The alias of a decision, if it has one. */
export const aliasOf = (kind: Pick<MockKindView, 'aliases'>, decision: string): MockDecisionAlias | undefined => kind.aliases?.find((a) => a.decision === decision);

/** The field a kind's records keep their state in: its `stateField`, else `state`. */
export const stateFieldOf = (kind: { readonly stateField?: string | undefined }): string => kind.stateField ?? 'state';
/** A record's state, read from its kind's state field. */
export const stateOf = (kind: { readonly stateField?: string | undefined }, record: object): number => Number((record as Readonly<Record<string, unknown>>)[stateFieldOf(kind)]);

/** The name of a kind's state, or `unknown`. */
export function stateName(kind: Pick<MockRecordKind, 'states'>, state: number): string {
  return Object.entries(kind.states.names).find(([, code]) => code === state)?.[0] ?? 'unknown';
}

/** The sum of `amount` over the records in `sumState` (in `stateField`) of those given (one order's): what they took from the order. */
export function sumOfOrder(of: NonNullable<MockKindView['ofOrder']>, records: readonly Readonly<Record<string, unknown>>[], stateField = 'state'): number {
  return records.filter((r) => r[stateField] === of.sumState).reduce((total, r) => total + Number(r[of.amount]), 0);
}
