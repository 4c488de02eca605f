/**
 * A part of the mock that is not a record kind of the generic desk (division: a batch and its records per exec, no
 * query, no key, a channel's outcome set by a test), declared once: its world, the operations it answers, its
 * controls (each a facade method, a control route and maybe a CLI verb), its reads, its members of the state, its
 * `due()` hook, its dashboard sections and `mock list` lines. The gateway, the handler, the control routes, the
 * dashboard and the CLI read the list of declared parts (`parts.ts`); adding a part is writing one of these.
 *
 * @module
 */
import type { ZodMiniType } from 'zod/mini';
import type { OperationName } from '../../operations/table.js';
import type { AcceptedRequest } from './accepted-request.js';
import type { MockDesks } from './kinds.js';
import type { SimulatedClock } from './clock.js';
import type { MerchantRegistry } from './merchants.js';
import type { MockKindControl } from './record-kind.js';

/** The gateway's parts a part's world is made from, once per gateway: the clock, the merchants, the kinds' desks (the orders' too). */
export interface MockPartParts {
  readonly clock: SimulatedClock;
  readonly merchants: MerchantRegistry;
  readonly desks: MockDesks;
}

/** One operation a part answers: the request, and `interrupted` when the `refusedAfterStore` fault struck it. */
export type MockPartStep<World> = (world: World, request: AcceptedRequest, interrupted: 'created' | 'processing' | undefined) => Readonly<Record<string, unknown>>;

/** A control answer as the CLI reads it. */
export type MockVerbAnswer = Readonly<Record<string, unknown>>;

/** An option of a part's CLI verb: the body member it sets, read as a string, a flag (`true`) or a whole number. */
export interface MockVerbOption {
  readonly member: string;
  readonly type: 'string' | 'boolean' | 'number';
  /** The value's placeholder in the usage (`NAME`); none for a flag. */
  readonly value?: string | undefined;
  readonly help: string;
}

/**
 * The CLI's verb of a part's control, `mock <name>`: no argument, or one of `choices` (the body's `member`); its
 * options set the other members; `failure`: it takes `--err-code` and `--err-msg` too.
 */
export interface MockPartVerb {
  readonly name: string;
  readonly choices?: { readonly member: string; readonly values: readonly string[]; readonly example: string } | undefined;
  readonly options?: { readonly [option: string]: MockVerbOption } | undefined;
  readonly failure?: boolean | undefined;
  /** Its lines in `mock <verb> --help`. */
  readonly help: readonly string[];
  /** What it prints of the answer; `failure` prints a failure's `errCode` and `errMsg` as every verb does. */
  said(answer: MockVerbAnswer, failure: (answer: MockVerbAnswer) => string): string;
}

/**
 * One control of a part: the facade method `name` and the route `{method} /_mock/{path}`, both answering what `run`
 * returns; a kind's control ({@link MockKindControl}) with the path below `/_mock/` and the part's own CLI verb. Its
 * argument is the route's JSON body, or, when the path has a `{name}` segment (`addresses/{serverRequestId}/approve`),
 * that segment: such a control reads no body.
 */
export interface MockPartControl<World> extends Omit<MockKindControl<World>, 'verb' | 'said' | 'body' | 'bodySchema'> {
  /** The JSON body it reads, as people write it; none for a control whose argument is a path segment. */
  readonly body?: string | undefined;
  /** Checks the body (and the facade method's argument); none for a control whose argument is a path segment. */
  readonly bodySchema?: ZodMiniType | undefined;
  readonly verb?: MockPartVerb | undefined;
}

/** The `{name}` segment of a control's path, if it takes its argument from one. */
export const segmentOf = (control: Pick<MockPartControl<never>, 'path'>): string | undefined => /\{(\w+)\}/.exec(control.path)?.[1];

/** A control's route below `/_mock/` for one record: its path with the `{name}` segment filled in, encoded. */
export const routeOf = (control: Pick<MockPartControl<never>, 'path'>, ref: string): string => control.path.replace(/\{\w+\}/, encodeURIComponent(ref));

/** The kit the dashboard lends a part's sections (`pages/html.ts`), so that a part's folder needs no page of the mock. */
export interface MockPageKit<Markup> {
  html(strings: TemplateStringsArray, ...values: unknown[]): Markup;
  section(title: string, count: number, table: Markup): Markup;
  formatAmount(minor: number, currency: string): string;
  formatTime(ms: number | undefined): string;
  /** A button that POSTs to the control route `/_mock/{route}` (e.g. {@link routeOf} a control), then reloads the page. */
  button(route: string, label: string, kind?: 'primary' | 'danger'): Markup;
}

/** The kit `mock list` lends a part's lines: rows of the state read as hostile, a value as text, an amount, a titled section. */
export interface MockListKit {
  rows(value: unknown): MockVerbAnswer[];
  text(value: unknown): string;
  money(row: MockVerbAnswer, field: string): string;
  section(title: string, lines: readonly string[]): string[];
}

/** The names of the numbers an operation's logged answer fields carry, by field (`{ status: ['under review', ...] }`), for the request log. */
export type MockLoggedNames = { readonly [field: string]: Readonly<Record<number, string>> };

/** A read of a part's world: of no argument (`divisionGroups()`), or of the facade method's (`address(ref)`). */
// A method, so that a read of a given argument type is a read of any.
export type MockPartRead<World> = { read(world: World, ...args: never[]): unknown }['read'];

/** Members of the state: each a list, newest first. */
export type MockPartMembers<State> = { readonly [M in keyof State]: readonly unknown[] };

/**
 * A part of the mock. `World` is its own state and the gateway's parts it reads, `State` its members of `state()` (its
 * documented interface, e.g. `MockDivisionState`).
 */
export interface MockPart<
  World = unknown,
  Name extends string = string,
  Ops extends { readonly [Op in OperationName]?: MockPartStep<World> } = { readonly [Op in OperationName]?: MockPartStep<World> },
  Controls extends readonly MockPartControl<World>[] = readonly MockPartControl<World>[],
  Reads extends { readonly [read: string]: MockPartRead<World> } = { readonly [read: string]: MockPartRead<World> },
  State extends MockPartMembers<State> = { readonly [member: string]: readonly unknown[] },
> {
  /** e.g. `division`: the name its world is kept under. */
  readonly name: Name;
  /** Its world, made once per gateway. */
  world(parts: MockPartParts): World;
  /** The business step of each operation it answers. */
  readonly operations: Ops;
  /** Its controls, in the order the routes, the usage and the guide list them. */
  readonly controls: Controls;
  /** The facade's getters, each a method of the read's arguments after the world, e.g. `divisionGroups()`, `address(ref)`. */
  readonly reads: Reads;
  /** Its members of `state()` and `GET /_mock/state`, each read from its world, newest first. */
  readonly state: { readonly [M in keyof State]: (world: World) => State[M] };
  /** What `GET /_mock/state` says of its members, e.g. `division groups, receivers, batches and records`. */
  readonly holds: string;
  /** The request log's names of the numbers its operations answer in their logged fields (a state the spec does not name). */
  readonly logged?: { readonly [Op in keyof Ops]?: MockLoggedNames } | undefined;
  /** Runs what falls due on the simulated clock, before each request is answered, on `advanceTime` and before `state()`. */
  due?(world: World): void;
  /** The dashboard's sections, of the part's members of the state. */
  sections?<Markup>(state: State, kit: MockPageKit<Markup>): Markup;
  /** `mock list`: what it calls its members (`division groups, receivers and divisions`), and its lines, of the state as received. */
  readonly list?: { readonly holds: string; lines(state: MockVerbAnswer, kit: MockListKit): string[] } | undefined;
  /** `mock`'s usage: the sentence on its verbs (`mock a, b and c {does}`), with the other verbs it names. */
  readonly summary?: { readonly does: string; readonly with?: readonly string[] | undefined } | undefined;
}

/**
 * Declares a part of the mock of world `World` and members of the state `State`: keeps its name, operations, controls
 * and reads as literal types, from which the gateway's methods are derived.
 *
 * @example
 * ```ts
 * export const divisionPart = defineMockPart<DivisionWorld, MockDivisionState>()({ name: 'division', world: (parts) => ..., operations: { executeDivision: ... }, ... });
 * ```
 */
export function defineMockPart<World, State extends MockPartMembers<State> = Record<never, never>>() {
  return <
    const Name extends string,
    const Ops extends { readonly [Op in OperationName]?: MockPartStep<World> },
    const Controls extends readonly MockPartControl<World>[],
    const Reads extends { readonly [read: string]: MockPartRead<World> },
  >(
    part: MockPart<World, Name, Ops, Controls, Reads, State>,
  ): MockPart<World, Name, Ops, Controls, Reads, State> => part;
}

/** What the routes, the handler, the dashboard and the CLI read of a part; any declared part is one. */
export interface MockPartView {
  readonly name: string;
  readonly operations: { readonly [Op in OperationName]?: MockPartStep<never> };
  readonly controls: readonly MockPartControl<never>[];
  readonly reads: { readonly [read: string]: MockPartRead<never> };
  readonly state: { readonly [member: string]: (world: never) => readonly unknown[] };
  readonly holds: string;
  readonly logged?: { readonly [Op in OperationName]?: MockLoggedNames } | undefined;
  due?(world: never): void;
  sections?<Markup>(state: never, kit: MockPageKit<Markup>): Markup;
  readonly list?: MockPart['list'];
  readonly summary?: MockPart['summary'];
}

/** The world of each part, by its name. */
export type MockPartWorlds = Readonly<Record<string, unknown>>;

/** Makes each part's world from the gateway's parts. */
export function createPartWorlds(parts: readonly MockPartView[], from: MockPartParts): MockPartWorlds {
  return Object.fromEntries(parts.map((part) => [part.name, (part as unknown as MockPart).world(from)]));
}

/** Runs each part's `due()` on its world. */
export function runDue(parts: readonly MockPartView[], worlds: MockPartWorlds): void {
  for (const part of parts) (part as unknown as MockPart).due?.(worlds[part.name]);
}

/** Each part's members of the state, read from its world. */
export function partState(parts: readonly MockPartView[], worlds: MockPartWorlds): Record<string, readonly unknown[]> {
  return Object.fromEntries(parts.flatMap((part) => Object.entries((part as unknown as MockPart).state).map(([member, read]) => [member, read(worlds[part.name])])));
}

/** Each declared part's operations, as steps of the handler's context: the part's step on its world. */
export function partOperations<Context extends AcceptedRequest & { readonly parts: MockPartWorlds; readonly interrupted?: 'created' | 'processing' | undefined }>(
  parts: readonly MockPartView[],
): { readonly [Op in OperationName]?: (context: Context) => Readonly<Record<string, unknown>> } {
  return Object.fromEntries(
    parts.flatMap((part) =>
      Object.entries((part as unknown as MockPart).operations).map(([operation, step]) => [
        operation,
        ({ parts: worlds, interrupted, app, params, blank }: Context) => (step as MockPartStep<unknown>)(worlds[part.name], { app, params, blank }, interrupted),
      ]),
    ),
  );
}

/**
 * Runs a part's control of a gateway (or of the narrow controls the routes use): the facade method of its name, which
 * `part-methods.ts` put there.
 */
export function runPartControl(gateway: object, control: MockPartControl<never>, argument: unknown): unknown {
  const method = (gateway as Readonly<Record<string, unknown>>)[control.name];
  if (typeof method !== 'function') throw new TypeError(`the mock has no method ${control.name}: its part is not declared in parts.ts`);
  return (method as (argument: unknown) => unknown).call(gateway, argument);
}
