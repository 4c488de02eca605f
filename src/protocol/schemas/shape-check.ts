/**
 * Compile-time proof that a declared parameter interface and its zod schema's input type agree: the same
 * named keys, and each type assignable to the other. The interfaces carry the documentation; the schemas
 * do the checking.
 */
export type SameShape<Declared, Inferred> = [NamedKeys<Declared>] extends [NamedKeys<Inferred>]
  ? [NamedKeys<Inferred>] extends [NamedKeys<Declared>]
    ? [Declared] extends [Inferred]
      ? [Inferred] extends [Declared]
        ? true
        : false
      : false
    : false
  : false;

/** Fails to compile unless `T` is `true`. */
export type Assert<T extends true> = T;

/** The keys a type names, without those of an index signature. */
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 0 };
