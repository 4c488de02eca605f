/**
 * The mock gateway's methods of each declared part (`domain/parts.ts`), derived from its declaration: one per control
 * (`createDivisionGroup(group)`, answering what the control's route answers) and one per read (`divisionGroups()`,
 * `address(ref)`).
 * No part has a hand-written one; the documented interfaces are checked against these.
 *
 * @module
 */
import type { MockPart, MockPartControl, MockPartView } from './domain/mock-part.js';
import { PART_VIEWS, type MockPartKind, type MockPartMethods, type MockPartState } from './domain/parts.js';
import type { Same, SameMethods } from './same-methods.js';

type ControlsOf<P> = P extends { readonly controls: infer Controls extends readonly unknown[] } ? Controls[number] : never;
type ReadsOf<P> = P extends { readonly reads: infer Reads } ? Reads : never;
/** A control's arguments after the world, as declared (an optional one stays optional). */
type ArgumentsOf<C> = C extends { readonly run: (world: never, ...rest: infer Rest) => unknown } ? Rest : never;
/** A read's arguments after the world, as declared. */
type ReadArguments<F> = F extends (world: never, ...rest: infer Rest) => unknown ? Rest : never;
type AnswerOf<C> = C extends { readonly run: (...args: never[]) => infer Answer } ? Answer : never;
type Returned<F> = F extends (...args: never[]) => infer Result ? Result : never;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Each part's controls and reads, by the names its declaration gives them. */
type DerivedMethods = {
  [C in ControlsOf<MockPartKind> as C extends { readonly name: infer Name extends string } ? Name : never]: (...args: ArgumentsOf<C>) => AnswerOf<C>;
} & UnionToIntersection<MockPartKind extends infer P ? (P extends MockPartKind ? { [R in keyof ReadsOf<P>]: (...args: ReadArguments<ReadsOf<P>[R]>) => Returned<ReadsOf<P>[R]> } : never) : never>;

/** Each part's members of the state. */
type DerivedState = UnionToIntersection<MockPartKind extends infer P ? (P extends MockPartKind ? { readonly [M in keyof P['state']]: Returned<P['state'][M]> } : never) : never>;

// The documented methods and state members are exactly the derived ones: a part added, or a control or a read
// changed, without its documentation fails to compile here.
const documentedAsDerived: SameMethods<DerivedMethods, MockPartMethods> = true;
const stateAsDerived: Same<{ [Name in keyof DerivedState]: DerivedState[Name] }, { [Name in keyof MockPartState]: MockPartState[Name] }> = true;
void documentedAsDerived;
void stateAsDerived;

/**
 * Puts each declared part's methods on `prototype`: a control runs on the part's world (`worldOf(gateway, part)`),
 * a read reads it. A name already taken is a mistake in a declaration.
 */
export function addPartMethods(prototype: object, worldOf: (gateway: never, part: string) => unknown, parts: readonly MockPartView[] = PART_VIEWS): void {
  for (const part of parts as readonly MockPart[]) {
    const methods: Readonly<Record<string, (this: never, ...args: never[]) => unknown>> = {
      ...Object.fromEntries(
        part.controls.map((control: MockPartControl<unknown>) => [
          control.name,
          function (this: never, argument: unknown) {
            return control.run(worldOf(this, part.name), argument as never, control.name);
          },
        ]),
      ),
      ...Object.fromEntries(
        Object.entries(part.reads).map(([name, read]) => [
          name,
          function (this: never, ...args: never[]) {
            return read(worldOf(this, part.name), ...args);
          },
        ]),
      ),
    };
    for (const [name, method] of Object.entries(methods)) {
      if (name in prototype) throw new Error(`the mock's ${part.name} part declares a method ${name}, which the gateway already has: rename it in the declaration`);
      Object.defineProperty(prototype, name, { value: method, writable: true, configurable: true });
    }
  }
}
