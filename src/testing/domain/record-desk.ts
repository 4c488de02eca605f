/**
 * The generic desk: runs any declared record kind (`record-kind.ts`): a create refused in the declared order, then
 * stored, then decided by the mode (the record's own, else the kind's); decisions by test controls; expiry on the
 * simulated clock; the notified states handed to the notifier; the query by id or key; copies for tests.
 *
 * @module
 */
import * as z from 'zod/mini';
import { definitionOf, type OperationName } from '../../operations/table.js';
import { maskPersonalFields } from '../../protocol/schemas/free-text.js';
import { objectFields } from '../../protocol/schemas/introspect.js';
import { parseInput } from '../../protocol/schemas/parse.js';
import type { AcceptedRequest } from './accepted-request.js';
import { merchantScoped, type MockMerchant } from './merchants.js';
import { nounOf, stateFieldOf, stateName, stateOf, type MockKindOperations, type MockParts, type MockRecordBase, type MockRecordKind, type MockRecordReader } from './record-kind.js';
import { refuse } from './refusals.js';

/** How a held record ends: a decision of its kind, with a failure's texts. */
export interface MockDecision<Decision extends string = string> {
  readonly to: Decision;
  /** For a failure: the channel's error code (else the kind's default). */
  readonly errCode?: string | undefined;
  /** For a failure: the channel's error text (else the kind's default). */
  readonly errMsg?: string | undefined;
}

const text = () => z.optional(z.string({ error: 'must be a string' }));
/** A record's id or key as a control takes it. */
export const controlId = () => z.string({ error: 'must be a string' }).check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(64, { error: 'must be at most 64 characters' }));
const choiceText = (values: readonly string[]) => `must be ${values.slice(0, -1).map((v) => `'${v}'`).join(', ')} or '${String(values.at(-1))}'`;
const choice = <T extends string>(values: readonly T[]) => z.enum(values as [T, ...T[]], { error: choiceText(values) });

/** The schemas of a kind's controls: its mode, the one record a mode may be for, its decision, a step's `to`. */
export function controlSchemas<Mode extends string, Decision extends string>(kind: { readonly modes: { readonly [M in Mode]: unknown }; readonly decisions: { readonly [D in Decision]: unknown }; readonly key: string }) {
  const modes = Object.keys(kind.modes) as Mode[];
  // A kind with no modes has no mode control: nothing is a mode of it.
  const mode = modes.length > 0 ? choice(modes) : z.never({ error: 'this kind has no modes' });
  const target = z.strictObject({ [kind.key]: controlId() } as Record<string, ReturnType<typeof controlId>>);
  const decisions = Object.keys(kind.decisions) as Decision[];
  const decision = z.strictObject({ to: choice(decisions), errCode: text(), errMsg: text() });
  const step = z.optional(z.enum(decisions as [Decision, ...Decision[]], { error: `${choiceText(decisions)} (leave it out for the next step)` }));
  return { mode, target, decision, step, key: controlId() };
}

/** The facade's name of a kind's control, e.g. `setRefundMode`, `settleRefund`, `progressSettlement`. */
export const controlName = (kind: Pick<MockRecordKind, 'label'>, control: 'mode' | 'settle' | 'progress'): string => (control === 'mode' ? `set${kind.label}Mode` : `${control}${kind.label}`);

/** A failure's texts, as a decision or an alias gives them. */
type Failure = { readonly errCode?: string | undefined; readonly errMsg?: string | undefined };

/** The field names a schema's object shape declares, in its order: what an answer or a notification carries. */
export function fieldsOf(operation: MockKindOperations['create']): readonly string[] {
  return Object.keys((definitionOf(operation).result as unknown as { def: { shape: object } }).def.shape);
}

// One sequence per kind for the whole process: two mocks never give the same id.
const sequences = new Map<string, number>();

/** The records of one kind, for all merchants, with the kind's state machine. */
export class RecordDesk<R extends MockRecordBase = MockRecordBase, World = unknown, Mode extends string = string, Decision extends string = string> implements MockRecordReader<R> {
  /** The kind's own state and the parts it reads (e.g. refunds' orders and channels that cannot refund). */
  readonly world: World;
  readonly #records = new Map<string, R>();
  readonly #byKey = new Map<string, R>();
  #mode: Mode;
  // Test controls' own values, never a received one: each record's mode, by its key.
  readonly #modes = new Map<string, Mode>();
  readonly #schemas;

  constructor(
    readonly kind: MockRecordKind<R, World, Mode, Decision>,
    private readonly parts: MockParts,
    /** Told of a record that reached a notified state. */
    private readonly onNotified: (record: R) => void,
  ) {
    this.world = kind.world(parts);
    this.#mode = Object.keys(kind.modes)[0] as Mode;
    this.#schemas = controlSchemas(kind);
  }

  /**
   * The create: the declared refusals in order; then the record is stored, then decided by the world (`decide`) or its
   * mode (neither when `interrupted`); `origin` is the gateway's, for links in the answer.
   */
  create(request: AcceptedRequest, interrupted?: 'created' | 'processing', origin = ''): Record<string, unknown> {
    const now = this.parts.clock.now();
    const taken = (key: string) => this.#byKey.has(merchantScoped(request.app.mchNo, key));
    const call = { request, world: this.world, records: [...this.#records.values()], taken, now, origin };
    for (const check of this.kind.refusals) {
      const refusal = check(call);
      if (refusal !== undefined) throw refuse(refusal);
    }
    const sequence = (sequences.get(this.kind.name) ?? 0) + 1;
    sequences.set(this.kind.name, sequence);
    const record = this.kind.create(call, `${now}${String(sequence).padStart(4, '0')}`, interrupted);
    this.#records.set(this.#idOf(record), record);
    this.#byKey.set(merchantScoped(record.mchNo, this.#keyOf(record)), record);
    const decided = interrupted === undefined ? this.kind.decide?.(record, call) : undefined;
    const mode = interrupted === undefined && decided === undefined ? (this.#modes.get(this.#keyOf(record)) ?? this.#mode) : undefined;
    const decision = decided?.to ?? (mode === undefined ? undefined : this.kind.modes[mode]);
    if (decision !== undefined) this.#decide(record, decision, decided ?? {});
    return this.kind.answers?.create?.(record) ?? this.#answer(record, this.kind.operations.create);
  }

  /** The query: the merchant's record by its id (preferred) or its key. */
  find(app: MockMerchant, params: Readonly<Record<string, string | number>>): R {
    this.expire();
    const byId = params[this.kind.id];
    if (byId === undefined && params[this.kind.key] === undefined && this.kind.missingRefs !== undefined) throw refuse(this.kind.missingRefs);
    const record = byId !== undefined ? this.#records.get(String(byId)) : this.#byKey.get(merchantScoped(app.mchNo, String(params[this.kind.key])));
    if (!record || record.mchNo !== app.mchNo) throw refuse(this.kind.notFound);
    return record;
  }

  /** The query's answer: the fields its declared result has, or the kind's own answer. */
  queryData(record: R): Record<string, unknown> {
    return this.kind.answers?.query?.(record) ?? this.#answer(record, this.kind.operations.query);
  }

  /** One of the kind's further operations (`close`) on the merchant's record, found as the query finds it. */
  act(operation: OperationName, app: MockMerchant, params: Readonly<Record<string, string | number>>, payerFirst = false): Readonly<Record<string, unknown>> {
    const action = this.kind.actions?.[operation];
    if (action === undefined) throw new Error(`${this.kind.plural} declare no operation ${operation}`);
    return action(this.find(app, params), { world: this.world, now: this.parts.clock.now(), payerFirst });
  }

  /** Test control: the mode of the coming records, or of the one record `target` names by its key (which wins). */
  setMode(mode: Mode, target?: object): void {
    const name = controlName(this.kind, 'mode');
    if (Object.keys(this.kind.modes).length === 0) throw new Error(`${this.kind.plural} have no modes: the world decides them`);
    const checked = parseInput(z.object({ mode: this.#schemas.mode, target: z.optional(this.#schemas.target) }), { mode, target }, `Invalid ${name} options`, 'options');
    const key = (checked.target as Readonly<Record<string, string>> | undefined)?.[this.kind.key];
    if (key === undefined) this.#mode = checked.mode as Mode;
    else this.#modes.set(key, checked.mode as Mode);
  }

  /** Test control: an open record ends as `decision.to` says. */
  settle(ref: string, decision: MockDecision<Decision>, name = controlName(this.kind, 'settle')): R {
    const checked = parseInput(this.#schemas.decision, decision, `Invalid ${name} decision`, 'options');
    const record = this.#open(ref, name);
    this.#decide(record, checked.to as Decision, checked);
    return this.#view(record);
  }

  /** Test control: a decision under its alias's name (`payOrder(ref)`), with the failure's texts its argument gives. */
  alias(name: string, ref: string, argument?: unknown): R {
    const alias = this.kind.aliases?.find((a) => a.name === name);
    if (!alias) throw new Error(`${this.kind.plural} have no control ${JSON.stringify(name)}`);
    const checked = alias.bodySchema === undefined ? undefined : parseInput(alias.bodySchema, argument, `Invalid ${name} ${alias.argument ?? 'argument'}`, 'options');
    const texts: Failure = alias.texts?.(checked as never) ?? {};
    const decision = { to: alias.decision, ...(texts.errCode === undefined ? {} : { errCode: texts.errCode }), ...(texts.errMsg === undefined ? {} : { errMsg: texts.errMsg }) };
    return this.settle(ref, decision, name);
  }

  /** Test control: one of the kind's controls on one record (`setOrderFee`), its argument checked first; then expiry runs. */
  recordControl(name: string, ref: string, argument?: unknown): unknown {
    const control = this.kind.recordControls?.find((c) => c.name === name);
    if (!control) throw new Error(`${this.kind.plural} have no control ${JSON.stringify(name)}`);
    const checked = control.bodySchema === undefined ? undefined : parseInput(control.bodySchema, argument, control.invalid ?? `Invalid ${name} ${control.argument ?? 'argument'}`, 'options');
    const record = control.open === true ? this.#open(ref, name) : this.#resolve(ref, name);
    const call = { world: this.world, now: this.parts.clock.now(), control: name, signed: () => this.parts.signed(this.kind as unknown as MockRecordKind, record) };
    const answer = control.run(record, checked as never, call);
    this.expire();
    return answer === record ? this.#view(record) : answer;
  }

  /** Test control of a kind that declares `steps`: an open record takes `to`, by default its state's next step. */
  progress(ref: string, to?: Decision): R {
    const name = controlName(this.kind, 'progress');
    const steps = this.kind.steps;
    if (steps === undefined) throw new Error(`${this.kind.plural} declare no steps`);
    const checked = parseInput(this.#schemas.step, to, `Invalid ${name} to`, 'options') as Decision | undefined;
    this.expire();
    const record = this.#lookup(ref, name);
    if (!record) throw new Error(`${name}: nothing with ${this.kind.id} or ${this.kind.key} ${JSON.stringify(ref)}`);
    const state = stateOf(this.kind, record);
    const next = checked ?? steps.next[state];
    if (!this.kind.states.open.includes(state) || next === undefined) {
      throw new Error(`${name}: ${nounOf(this.kind)} ${this.#keyOf(record)} is already final (${stateFieldOf(this.kind)} ${state}, ${stateName(this.kind, state)})`);
    }
    this.#decide(record, next, {});
    return this.#view(record);
  }

  /** Test control: one of the kind's own controls (e.g. `refuseRefunds`), by its facade name; its argument checked first. */
  control(name: string, argument: unknown): unknown {
    const control = this.kind.controls?.find((c) => c.name === name);
    if (!control) throw new Error(`${this.kind.plural} have no control ${JSON.stringify(name)}`);
    const checked = parseInput(control.bodySchema, argument, `Invalid ${name} ${control.argument}`, 'options');
    return control.run(this.world, checked as never, name);
  }

  /** Moves records still open past the kind's expiry (its own time, or `afterMs` after creation), as the reference's job does; notified only when the state is. */
  expire(): void {
    const { expiry } = this.kind;
    if (expiry === undefined) return;
    const now = this.parts.clock.now();
    const endOf = 'at' in expiry ? expiry.at : (record: R) => record.createdAt + expiry.afterMs;
    for (const record of this.#records.values()) {
      if (this.kind.states.open.includes(stateOf(this.kind, record)) && endOf(record) <= now) this.#move(record, expiry.to);
    }
  }

  /** A copy of a record by its id or a key only one merchant uses. */
  snapshot(ref: string): R | undefined {
    const record = this.lookup(ref);
    return record && this.#view(record);
  }

  /** Copies of every record, oldest first. */
  list(): R[] {
    return this.live().map((record) => this.#view(record));
  }

  /** A live record by its id or a key only one merchant uses, for another kind's world (refunds' orders). */
  lookup(ref: string): R | undefined {
    this.expire();
    return this.#lookup(ref);
  }

  /** The live record a test control names, which must exist. */
  resolve(ref: string, control: string): R {
    return this.#resolve(ref, control);
  }

  /** Every live record, oldest first, for another kind's world (division's orders waiting for it). */
  live(): readonly R[] {
    this.expire();
    return [...this.#records.values()];
  }

  /** A copy a test may change, its personal fields (those the query's declared result marks, a payee's) masked: views reach logs and screens. */
  #view(record: R): R {
    return maskPersonalFields(copyOf(record), objectFields(definitionOf(this.kind.operations.query).result).personal);
  }

  #decide(record: R, decision: Decision, failure: Failure): void {
    const transition = this.kind.decisions[decision];
    if (transition.failure) {
      record.errCode = failure.errCode ?? transition.failure.errCode;
      record.errMsg = failure.errMsg ?? transition.failure.errMsg;
    }
    if (transition.stamp !== undefined) (record as Record<string, unknown>)[transition.stamp] = this.parts.clock.now();
    this.#move(record, transition.to, () => this.kind.effect?.(record, this.world, [...this.#records.values()]));
  }

  /** Moves a record to `to`, runs `effect` (a decision's), then hands it to the notifier when `to` is notified. */
  #move(record: R, to: number, effect?: () => void): void {
    (record as Record<string, unknown>)[stateFieldOf(this.kind)] = to;
    effect?.();
    if (this.kind.states.notified.includes(to)) this.onNotified(record);
  }

  #answer(record: R, operation: MockKindOperations['create']): Record<string, unknown> {
    return Object.fromEntries(fieldsOf(operation).map((name) => [name, (record as Record<string, unknown>)[name]]));
  }

  #idOf(record: R): string {
    return String(record[this.kind.id]);
  }

  #keyOf(record: R): string {
    return String(record[this.kind.key]);
  }

  #lookup(ref: string, control?: string): R | undefined {
    const byId = this.#records.get(ref);
    if (byId) return byId;
    const matches = [...this.#records.values()].filter((r) => this.#keyOf(r) === ref);
    if (matches.length > 1) throw new Error(`${control === undefined ? '' : `${control}: `}several merchants use ${this.kind.key} ${JSON.stringify(ref)}; give the ${this.kind.id}`);
    return matches[0];
  }

  #resolve(ref: string, control: string): R {
    this.expire();
    const record = this.#lookup(ref);
    if (!record) throw new Error(`${control}: no ${nounOf(this.kind)} with ${this.kind.id} or ${this.kind.key} ${JSON.stringify(ref)}`);
    return record;
  }

  /** The open record a control names; a final one is refused. */
  #open(ref: string, control: string): R {
    const record = this.#resolve(ref, control);
    const { open } = this.kind.states;
    const [field, state] = [stateFieldOf(this.kind), stateOf(this.kind, record)];
    if (!open.includes(state)) {
      throw new Error(`${control}: ${nounOf(this.kind)} ${this.#idOf(record)} is ${stateName(this.kind, state)} (${field} ${state}); only ${this.kind.plural} in ${field} ${open.join(' or ')} can change`);
    }
    return record;
  }
}

/** A copy a test may change without changing the desk's record (an order's transactions included). */
const copyOf = <R>(record: R): R => structuredClone(record);
