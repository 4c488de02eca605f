import * as z from 'zod/mini';
import { JsonNumberText } from '../json/lossless-json.js';
import { REPORT_INPUT } from './issues.js';

/** A required string field: present and non-empty (the gateway does not sign `""`, so it would be missing). */
export const requiredText = (): z.ZodMiniString<string> =>
  z.string({ error: 'must be a string' }).check(z.refine((value) => value !== '', { error: 'must not be empty' }));

/**
 * The merchant's signing secret (the client's and the notification options' one rule): non-empty, with no
 * whitespace or invisible (format) character at either end and no line break, which every signature would
 * include. The value is never echoed.
 */
export const secretText = (): z.ZodMiniString<string> =>
  requiredText().check(
    // \p{Cf}: a zero-width space or a word joiner copied from a web page, which trim() keeps.
    z.refine((value) => !/^[\s\p{Cf}]|[\s\p{Cf}]$|[\r\n\u0085\u2028\u2029]/u.test(value), {
      error: "must not start or end with whitespace or an invisible character, or hold a line break, which every signature would include (a secret read from a file keeps the file's final newline: trim it, e.g. readFileSync(file, 'utf8').trim())",
    }),
  );

/** A three-letter currency code (ISO 4217, any case: gateways differ), e.g. `USD`; `EURO` or `$` is refused before sending. */
export const currencyCode = (): z.ZodMiniString<string> =>
  z.string({ error: 'must be a string' }).check(z.refine((value) => /^[A-Za-z]{3}$/.test(value), { error: 'must be a three-letter currency code, e.g. USD or EUR' }));

/** An optional string field; `""` is allowed and means "not sent" (the signer drops it). */
export const optionalText = () => z.optional(z.string({ error: 'must be a string' }));

/** An absolute http(s) URL; `example` shows one in the message (a callback or the gateway's base). */
export const httpUrl = (example = 'https://shop.example.com/pay/notify') =>
  z.string({ error: 'must be a string' }).check(z.refine((value) => value === '' || isHttpUrl(value), { error: `must be an absolute http(s) URL, e.g. ${example}` }));

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'https:' || protocol === 'http:';
}

/** An amount in integer minor units (cents): a safe integer >= 1. */
export const minorUnits = () =>
  z.number({ error: 'must be a number of minor units (an integer, e.g. 1050 for 10.50)' }).check(
    z.refine(Number.isSafeInteger, { error: 'must be an integer number of minor units (e.g. 1050 for 10.50), within the safe integer range', abort: true }),
    z.refine((value: number) => value >= 1, { error: 'must be at least 1 (minor units)' }),
  );

/** A whole number within JavaScript's safe integer range, at least `min`. */
export const safeInteger = (min: number) =>
  z.number({ error: 'must be an integer' }).check(
    z.refine(Number.isSafeInteger, { error: 'must be an integer within the safe integer range', abort: true }),
    z.refine((value: number) => value >= min, { error: `must be at least ${min}` }),
  );

/** A delay in whole milliseconds, at least `min`, that `setTimeout` honours (larger values fire at once). */
export const timerDelayMs = (min: number) => safeInteger(min).check(z.refine((value: number) => value <= 2_147_483_647, { error: 'must be at most 2147483647 ms' }));

/**
 * A JSON-text parameter (`channelExtra`, `extParam`): an object, serialized once with `JSON.stringify`,
 * or a string that is sent as it is.
 */
export const jsonTextParam = <Shape extends z.ZodMiniType<Record<string, unknown>>>(objectSchema: Shape) =>
  // Checks and an in-place rewrite rather than a zod union or pipe, which would add 0.3 KB gzipped each to the
  // bundle. Every issue below ends the parse (none continues), so the rewrite sees only a value that passed.
  z
    .custom<string | Record<string, unknown>>((v) => typeof v === 'string' || (typeof v === 'object' && v !== null && !Array.isArray(v)), {
      error: 'must be an object (serialized for you) or a JSON string',
      abort: true,
    })
    .check(
      z.superRefine((value, ctx) => {
        if (typeof value === 'string') return;
        const checked = objectSchema.safeParse(value, REPORT_INPUT);
        if (!checked.success) return void ctx.issues.push(...(checked.error.issues as typeof ctx.issues));
        try {
          JSON.stringify(value);
        } catch (error) {
          ctx.issues.push({ code: 'custom', message: `cannot be serialized with JSON.stringify (${(error as Error).message})`, input: value });
        }
      }),
      // The caller's object as given (key order included), not zod's copy of it; one that serialized just now.
      z.overwrite((value) => (typeof value === 'string' ? value : JSON.stringify(value)) as never),
    ) as unknown as z.ZodMiniType<string, string | z.input<Shape>>;

/**
 * A string whose known values are offered for completion while any other string is accepted
 * (the gateway adds values, e.g. coin way codes, without notice).
 */
export const openString = <Known extends string>() =>
  z.string({ error: 'must be a string' }) as unknown as z.ZodMiniType<Known | (string & {}), Known | (string & {})>;

// ---- response fields: values come from the lossless JSON parser ----

/** An integer in a response: a safe integer; an unsafe or non-integer literal is an error, never rounded. */
export const wireInteger = () => z.number({ error: 'must be an integer' }).check(z.refine(Number.isSafeInteger, { error: 'must be an exact safe integer' }));

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * A decimal amount in a response, returned as the exact text received (`10.50` stays `"10.50"`).
 */
export const decimalText = () =>
  // A check and an in-place rewrite rather than a pipe (0.3 KB gzipped): the rewrite runs only when the checks passed.
  z
    .custom<number | string | JsonNumberText>((v) => typeof v === 'number' || typeof v === 'string' || v instanceof JsonNumberText, { error: 'must be a decimal number', abort: true })
    .check(
      z.refine((value) => DECIMAL.test(decimalTextOf(value)), { error: (issue) => `must be a plain decimal number, received ${JSON.stringify(decimalTextOf(issue.input as number | string | JsonNumberText).slice(0, 40))}`, abort: true }),
      z.overwrite((value) => decimalTextOf(value) as never),
    ) as unknown as z.ZodMiniType<string, number | string | JsonNumberText>;

const decimalTextOf = (value: number | string | JsonNumberText): string => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value : value.text);

declare const names: unique symbol;

/**
 * A schema that carries the named types of what it takes and gives (type-level only): the operation
 * table derives the client's parameter and result types from them, so compile errors name them
 * (`UnifiedOrderParams`, `PayOrder`) instead of spelling out the schema's structure.
 */
export type Named<S extends z.ZodMiniType, Input, Output> = S & { readonly [names]: { readonly input: Input; readonly output: Output } };

/** What a schema takes: its named input type, else its own input type. */
export type NamedInput<S> = S extends { readonly [names]: { readonly input: infer Input } } ? Input : z.input<S>;

/** What a schema gives: its named output type, else its own output type. */
export type NamedOutput<S> = S extends { readonly [names]: { readonly output: infer Output } } ? Output : z.output<S>;

/**
 * The schema with the named types of what it takes and gives, each declared from the schema itself
 * (an interface extending its `z.input`/`z.output`), or for the input narrower: a rule its refinement
 * checks at run time (one id of two, exactly one address) becomes a rule of the type.
 */
export const named =
  <Input, Output>() =>
  <S extends z.ZodMiniType>(schema: S): Named<S, Input, Output> =>
    schema as Named<S, Input, Output>;

/** {@link named} for the input alone: the output stays the schema's. */
export const withInput =
  <Input>() =>
  <S extends z.ZodMiniType>(schema: S): Named<S, Input, z.output<S>> =>
    schema as Named<S, Input, z.output<S>>;
