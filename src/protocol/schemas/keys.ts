/**
 * The field names a declaration may hold (an operation's row, a notification kind): those its schemas
 * declare, so that a misspelled one does not compile.
 *
 * @module
 */
import type * as z from 'zod/mini';

/**
 * The field names of a type, without an index signature: the fields a schema declares (a loose object's
 * output also admits any other key, which names no declared field).
 */
export type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] } & string;

/** The field names an object schema declares, from its output type: what a declaration may name. */
export type Keys<S extends z.ZodMiniType> = KnownKeys<z.output<S>>;

