/**
 * The `mock` verbs of each part the mock declares (`src/testing/domain/parts.ts`): one per control that declares a
 * verb (`division-group`, `receiver-refuse`, `division-outcome`), with its options, usage and help lines, and the
 * part's `mock list` lines. A part has these verbs because it is declared.
 *
 * @module
 */
import type { MockPartVerb, MockPartView, MockVerbOption } from '../testing/domain/mock-part.js';
import { PART_VIEWS } from '../testing/domain/parts.js';
import { failure, FAILURE_OPTIONS, failureOf, helpRow, listed, optionRow, wholeNumber, type TriggerSpec, type Values } from './trigger-spec.js';

const optionsOf = (verb: MockPartVerb): [string, MockVerbOption][] => Object.entries(verb.options ?? {});
/** The verbs a part's controls declare, in their order. */
const verbsOf = (part: MockPartView): MockPartVerb[] => part.controls.flatMap((control) => (control.verb === undefined ? [] : [control.verb]));
/** An option's value as the body takes it: text, `true` for a flag, a whole number (or as given: the mock refuses it with its reason). */
const valueOf = (option: MockVerbOption, value: string | boolean): string | number | boolean => (option.type === 'boolean' ? true : option.type === 'number' ? wholeNumber(value) : String(value));

/** A part's verbs: each its control's route, its options and argument, and what it prints. */
export function partVerbsOf(part: MockPartView): [string, TriggerSpec][] {
  return part.controls.flatMap((control): [string, TriggerSpec][] => {
    const { verb } = control;
    if (verb === undefined) return [];
    const { choices } = verb;
    return [[verb.name, {
      route: () => control.path,
      method: () => control.method,
      options: [...optionsOf(verb).map(([option]) => option), ...(verb.failure ? FAILURE_OPTIONS : [])],
      ...(choices === undefined
        ? { positionals: 'none' as const }
        : { choices: choices.values, argument: `${choices.member}: ${listed(choices.values, 'or')}, e.g. payment-gateway-sdk mock ${verb.name} ${choices.example}` }),
      body: (ref, values: Values) => ({
        ...(choices === undefined ? {} : { [choices.member]: String(ref) }),
        ...Object.fromEntries(optionsOf(verb).flatMap(([option, declared]) => {
          const value = values[option];
          return value === undefined || value === false ? [] : [[declared.member, valueOf(declared, value)]];
        })),
        ...(verb.failure ? failure(values) : {}),
      }),
      print: (answer) => verb.said(answer, failureOf),
    }]];
  });
}

/** Every declared part's verbs. */
export const PART_VERBS: Readonly<Record<string, TriggerSpec>> = Object.fromEntries(PART_VIEWS.flatMap(partVerbsOf));

/** The part verbs that take `--err-code` and `--err-msg`. */
export const PART_FAILURE_VERBS: readonly string[] = PART_VIEWS.flatMap(verbsOf).filter((verb) => verb.failure).map((verb) => verb.name);

/** Each part verb's options, and the message when another verb is given one. */
export const PART_OPTIONS: Readonly<Record<string, string>> = Object.fromEntries(PART_VIEWS.flatMap(verbsOf).flatMap((verb) => optionsOf(verb).map(([option]) => [option, `--${option} is an option of ${verb.name}`])));

/** The type of each of those options, for the command's parser. */
export const PART_OPTION_TYPES: Readonly<Record<string, { readonly type: 'string' | 'boolean' }>> = Object.fromEntries(
  PART_VIEWS.flatMap(verbsOf).flatMap((verb) => optionsOf(verb).map(([option, declared]) => [option, { type: declared.type === 'boolean' ? ('boolean' as const) : ('string' as const) }])),
);

/** The part verbs' names, in order. */
export const partVerbNames = (): string[] => PART_VIEWS.flatMap(verbsOf).map((verb) => verb.name);

/** The usage line of each part verb, e.g. `payment-gateway-sdk mock division-group [--name NAME] [--mch-no MCHNO] [--auto] [--url URL]`. */
export function partUsage(parts: readonly MockPartView[] = PART_VIEWS): string[] {
  return parts.flatMap(verbsOf).map((verb) => {
    const options = optionsOf(verb).map(([option, declared]) => `[--${option}${declared.value === undefined ? '' : ` ${declared.value}`}]`);
    const failures = verb.failure ? ['[--err-code CODE]', '[--err-msg TEXT]'] : [];
    return ['payment-gateway-sdk mock', verb.name, ...(verb.choices ? [verb.choices.values.join('|')] : []), ...options, ...failures, '[--url URL]'].join(' ');
  });
}

/** The help lines of each part verb, and of its options. */
export function partHelp(parts: readonly MockPartView[] = PART_VIEWS): { verbs: string[]; options: string[] } {
  const verbs = parts.flatMap(verbsOf);
  return {
    verbs: verbs.flatMap((verb) => verb.help.map((text, i) => helpRow(i === 0 ? verb.name : '', text))),
    options: verbs.flatMap((verb) => optionsOf(verb).map(([name, declared]) => optionRow(`--${name}${declared.value === undefined ? '' : ` ${declared.value}`}`, `${verb.name}: ${declared.help}`))),
  };
}

/** What each part's verbs do, for the command's usage: `mock division-group, ... and order-fee set up divisions (...)`. */
export function partSummary(): string[] {
  return PART_VIEWS.flatMap((part) => (part.summary === undefined ? [] : [`mock ${listed([...verbsOf(part).map((verb) => verb.name), ...(part.summary.with ?? [])])} ${part.summary.does}`]));
}
