/**
 * The mock gateway's methods of each declared record kind (`domain/kinds.ts`), derived from its declaration: for
 * refunds `refund(ref)`, `refunds()`, `setRefundMode(mode, target)`, `settleRefund(ref, decision)` and one method per
 * own control (`refuseRefunds`, `allowRefunds`). Each is the generic control (`record`, `records`, `setMode`, `settle`,
 * `control`) with the kind filled in; no kind has a hand-written one.
 *
 * @module
 */
import type { KindControls } from './domain/controls.js';
import { MOCK_KINDS, type MockKind, type MockKindMethods } from './domain/kinds.js';
import { controlName, type MockDecision } from './domain/record-desk.js';
import type { SameMethods } from './same-methods.js';
import { hasModes, nounOf, type DecisionOf, type MockKindView, type ModeOf, type RecordOf, type StepsOf } from './domain/record-kind.js';


type KeyOf<K> = K extends { readonly key: infer Key extends string } ? Key : never;
type ControlOf<K> = K extends { readonly controls?: infer Controls extends readonly unknown[] | undefined } ? NonNullable<Controls>[number] : never;
/** The names of a kind's own controls, e.g. `refuseRefunds` | `allowRefunds`. */
export type ControlNameOf<K> = ControlOf<K> extends infer C ? (C extends { readonly name: infer Name extends string } ? Name : never) : never;
type ArgumentOf<C> = C extends { readonly run: (world: never, argument: infer A, control: string) => unknown } ? A : never;
/** What the facade calls a record of a kind: its `noun`, else its name. */
type NounOf<K extends MockKind> = [NonNullable<K['noun']>] extends [never] ? K['name'] : string extends NonNullable<K['noun']> ? K['name'] : NonNullable<K['noun']>;
type AliasOf<K> = K extends { readonly aliases?: infer Aliases extends readonly unknown[] | undefined } ? NonNullable<Aliases>[number] : never;
type RecordControlOf<K> = K extends { readonly recordControls?: infer Controls extends readonly unknown[] | undefined } ? NonNullable<Controls>[number] : never;
type NameOf<T> = T extends { readonly name: infer Name extends string } ? Name : never;
/** The names of a kind's decision aliases, e.g. `payOrder` | `failOrder`. */
export type AliasNameOf<K> = NameOf<AliasOf<K>>;
/** The names of a kind's controls on one record, e.g. `setOrderFee` | `expireOrder` | `addTransaction`. */
export type RecordControlNameOf<K> = NameOf<RecordControlOf<K>>;
/** An argument as the facade takes it: optional when its declared type admits `undefined` (`failOrder(ref, failure?)`). */
type ArgumentList<A> = undefined extends A ? [argument?: A] : [argument: A];
/** A method of one record: `(ref)` when it takes no argument, else `(ref, argument)`. */
type OnRecord<A, Answer> = [A] extends [undefined] ? (ref: string) => Answer : (ref: string, ...argument: ArgumentList<A>) => Answer;
type AliasArgument<A> = A extends { texts?(argument: infer T): unknown } ? T : undefined;
type RecordControlArgument<C> = C extends { run(record: never, argument: infer T, call: never): unknown } ? T : never;
type RecordControlAnswer<C> = C extends { run(record: never, argument: never, call: never): infer Answer } ? Answer : never;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Each kind's aliases and controls on one record, by name: `payOrder(ref)`, `failOrder(ref, failure)`, `setOrderFee(ref, fee)`. */
type OnRecordMethods<K> = UnionToIntersection<
  K extends unknown
    ? { [A in AliasOf<K> as A extends { readonly name: infer Name extends string } ? Name : never]: OnRecord<AliasArgument<A>, RecordOf<K>> } & {
        [C in RecordControlOf<K> as C extends { readonly name: infer Name extends string } ? Name : never]: OnRecord<RecordControlArgument<C>, RecordControlAnswer<C>>;
      }
    : never
>;

/**
 * The methods each declared kind gives the mock gateway, by the names its declaration makes: `{name}(ref)` a copy of a
 * record by its id or key; `{plural}()` copies of all, oldest first; `set{Label}Mode(mode, target?)` how the coming
 * records go (with `target`, the one record of that key); `settle{Label}(ref, decision)` decides an open record;
 * `progress{Label}(ref, to?)` steps it on, for a kind that declares `steps`; and each of the kind's own controls by its name.
 */
export type DerivedKindMethods = { [K in MockKind as NounOf<K>]: (ref: string) => RecordOf<K> | undefined } & { [K in MockKind as K['plural']]: () => RecordOf<K>[] } & {
  [K in MockKind as [ModeOf<K>] extends [never] ? never : `set${K['label']}Mode`]: (mode: ModeOf<K>, target?: { readonly [Key in KeyOf<K>]: string }) => void;
} & { [K in MockKind as `settle${K['label']}`]: (ref: string, decision: MockDecision<DecisionOf<K>>) => RecordOf<K> } & {
  [K in MockKind as StepsOf<K> extends undefined ? never : `progress${K['label']}`]: (ref: string, to?: DecisionOf<K>) => RecordOf<K>;
} & {
  [C in ControlOf<MockKind> as C extends { readonly name: infer Name extends string } ? Name : never]: (...argument: ArgumentList<ArgumentOf<C>>) => void;
} & OnRecordMethods<MockKind>;

// The documented methods (each kind's own interface) are exactly the derived ones: a kind added, a mode, a key or a
// control changed, or an argument made optional or required, without its documentation fails to compile here.
const documentedAsDerived: SameMethods<DerivedKindMethods, MockKindMethods> = true;
void documentedAsDerived;

/** Puts each declared kind's methods on `prototype`, each calling the generic control; a name already taken is a mistake in a declaration. */
export function addKindMethods(prototype: KindControls): void {
  for (const kind of MOCK_KINDS as readonly MockKindView[]) {
    const methods: Readonly<Record<string, (this: KindControls, ...args: never[]) => unknown>> = {
      [nounOf(kind)]: function (this: KindControls, ref: string) {
        return this.record(kind.name, ref);
      },
      [kind.plural]: function (this: KindControls) {
        return this.records(kind.name);
      },
      ...(hasModes(kind)
        ? {
            [controlName(kind, 'mode')]: function (this: KindControls, mode: string, target?: object) {
              this.setMode(kind.name, mode, target);
            },
          }
        : {}),
      [controlName(kind, 'settle')]: function (this: KindControls, ref: string, decision: MockDecision) {
        return this.settle(kind.name, ref, decision);
      },
      ...(kind.steps === undefined
        ? {}
        : {
            [controlName(kind, 'progress')]: function (this: KindControls, ref: string, to?: string) {
              return this.progress(kind.name, ref, to);
            },
          }),
      ...Object.fromEntries(
        (kind.controls ?? []).map((control) => [
          control.name,
          function (this: KindControls, argument: unknown) {
            this.control(kind.name, control.name, argument);
          },
        ]),
      ),
      ...Object.fromEntries(
        (kind.aliases ?? []).map((alias) => [
          alias.name,
          function (this: KindControls, ref: string, argument?: unknown) {
            return this.alias(kind.name, alias.name, ref, argument);
          },
        ]),
      ),
      ...Object.fromEntries(
        (kind.recordControls ?? []).map((control) => [
          control.name,
          function (this: KindControls, ref: string, argument?: unknown) {
            return this.recordControl(kind.name, control.name, ref, argument);
          },
        ]),
      ),
    };
    for (const [name, method] of Object.entries(methods)) {
      if (name in prototype) throw new Error(`the mock's ${kind.plural} declare a method ${name}, which the gateway already has: rename it in the declaration`);
      Object.defineProperty(prototype, name, { value: method, writable: true, configurable: true });
    }
  }
}
