import type * as z from 'zod/mini';
import type { ValidationIssue } from '../../errors/index.js';
import { JsonNumberText } from '../json/lossless-json.js';
import { nearKey } from './near-key.js';

type ZodIssue = z.core.$ZodIssue;

/** Parse options that keep each issue's input, for messages; one shared object, not one per parse. */
export const REPORT_INPUT = Object.freeze({ reportInput: true });

/**
 * Turns zod issues into {@link ValidationIssue}s whose messages say what is wrong and what to do,
 * without echoing string values (they may be personal data).
 */
/** The keys an object may have, for messages about an unknown key: request fields, or options. */
export interface KnownKeys {
  readonly keys: readonly string[];
  readonly of: 'request' | 'options';
}

export function toValidationIssues(issues: readonly ZodIssue[], knownKeys?: KnownKeys): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    if (issue.code === 'unrecognized_keys') {
      // The known keys are those of the top-level object; a nested object's unknown key gets no list.
      for (const key of issue.keys) out.push({ path: [...path, key], message: unknownKeyMessage(key, path.length === 0 ? knownKeys : undefined, knownKeys?.of) });
      continue;
    }
    // A misplaced secret (a number, an object) must not be echoed: its issues never describe the input.
    if (path.includes('secret') && issue.input !== undefined) out.push({ path, message: messageFor({ ...issue, input: SECRET_INPUT } as ZodIssue) });
    // Nor a number where text was expected: it is that text's content (an account number given as a number).
    else if (issue.code === 'invalid_type' && issue.expected === 'string' && (typeof issue.input === 'number' || issue.input instanceof JsonNumberText)) out.push({ path, message: messageFor({ ...issue, input: NUMBER_FOR_TEXT } as ZodIssue) });
    else out.push({ path, message: messageFor(issue) });
  }
  return out;
}

const DEFAULT_MESSAGE = 'Invalid input';
const SECRET_INPUT = Symbol('secret input');
const NUMBER_FOR_TEXT = Symbol('number for text');

function messageFor(issue: ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  if (issue.message !== DEFAULT_MESSAGE) {
    return issue.code === 'invalid_type' || issue.code === 'invalid_value' ? `${issue.message}${received(issue.input)}` : issue.message;
  }
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${describeExpected(issue)}${received(issue.input)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}${received(issue.input)}`;
    case 'too_small':
      return issue.origin === 'string' ? `must be at least ${issue.minimum} characters` : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string' ? `must be at most ${issue.maximum} characters` : `must be at most ${issue.maximum}`;
    default:
      return `is invalid (${issue.code})`;
  }
}

function describeExpected(issue: ZodIssue | undefined): string {
  if (!issue || issue.code !== 'invalid_type') return 'valid';
  const expected = String(issue.expected);
  return expected === 'int' ? 'an integer' : /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function received(input: unknown): string {
  if (input === SECRET_INPUT) return ' (the value is not shown)';
  if (input === NUMBER_FOR_TEXT) return ', received a number (the value is not shown)';
  if (input === undefined) return ' (missing)';
  if (input === null) return ', received null';
  if (input instanceof JsonNumberText) return `, received the number ${input.text.slice(0, 40)}`;
  switch (typeof input) {
    case 'number':
    case 'boolean':
      return `, received ${String(input)}`;
    case 'string':
      return ', received a string';
    case 'object':
      return Array.isArray(input) ? ', received an array' : ', received an object';
    default:
      return `, received a ${typeof input}`;
  }
}

function unknownKeyMessage(key: string, known: KnownKeys | undefined, of = known?.of): string {
  const suggestion = known ? nearKey(key, known.keys) : undefined;
  const list = known ? ` ${known.of === 'request' ? 'This operation sends only' : 'The options are'}: ${known.keys.join(', ')}.` : '';
  const hint = suggestion ? ` Did you mean '${suggestion}'?` : list;
  return of === 'options'
    ? `unknown option '${key}'.${hint}`
    : `unknown field '${key}': the gateway re-signs only the fields it knows, so an extra field would fail its signature check.${hint}`;
}
