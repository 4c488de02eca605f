/**
 * The check that a documented interface of the mock gateway's derived methods (each kind's `Mock*Methods`, each
 * part's) is exactly what the declarations give: `kind-methods.ts` and `part-methods.ts` both compile against it.
 *
 * @module
 */

/** Whether `A` and `B` are the same type, each assignable to the other. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// Each method as its parameters and answer (an argument optional in one and required in the other differs), written
// out: an alias of the two would be compared by its variance, as functions.
type Signature<F> = F extends (...args: infer A) => infer R ? [A, R] : never;

/**
 * Whether `A` and `B` have the same methods, each with the same parameter list and answer.
 *
 * @example
 * ```ts
 * const documentedAsDerived: SameMethods<DerivedMethods, MockKindMethods> = true; // fails to compile unless so
 * ```
 */
export type SameMethods<A, B> = Same<{ [Name in keyof A]: Signature<A[Name]> }, { [Name in keyof B]: Signature<B[Name]> }>;
