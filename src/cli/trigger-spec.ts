/**
 * What one `payment-gateway-sdk mock <verb>` is: the control route it calls, what it sends, how it prints the
 * answer; and the pieces of answer every verb prints alike.
 *
 * @module
 */

/** The control answer's fields the command prints. */
export type Answer = Readonly<Record<string, unknown>>;
/** The options a trigger may take besides `--url` and `--help`, as given: `--err-code`... and each declared kind's `--<kind>`. */
export type Values = { readonly 'err-code'?: string; readonly 'err-msg'?: string; readonly 'if-code'?: string; readonly 'way-code'?: string; readonly allow?: boolean } & Readonly<
  Record<string, string | boolean | undefined>
>;

/** One action: the control route it calls and how it prints the answer. */
export interface TriggerSpec {
  /** The route below `{url}/_mock/`, for one positional argument (already URL-encoded). */
  readonly route: (ref: string) => string;
  /** The method; POST unless said. */
  readonly method?: (values: Values) => 'GET' | 'POST' | 'DELETE';
  /** The body it sends: from the positional argument and the options. */
  readonly body?: (ref: string | undefined, values: Values) => Readonly<Record<string, string | number | boolean>>;
  /** The options it takes. */
  readonly options?: readonly string[];
  /** Its positional arguments: one (the default), one or more (each a request of its own), none, or one unless an option names the target. */
  readonly positionals?: 'one' | 'many' | 'none' | 'optional';
  /** The positional values it takes, when not an id. */
  readonly choices?: readonly string[];
  /** What its positional argument is, with an example, for the message when it is missing or wrong. */
  readonly argument?: string;
  /** The most an answer may weigh; a control answer is one record, a few kilobytes. */
  readonly maxBytes?: number;
  /** The lines it prints (each made printable on its own), from the answer and what the request was made of. */
  readonly print: (answer: Answer, values?: Values, ref?: string | undefined) => string | readonly string[];
}

export const NOTIFIED = '; its notification goes out now (real clock) or with POST /_mock/notifications/deliver (manual clock)';
export const failureOf = (answer: Answer) => `  errCode ${String(answer.errCode)}  errMsg ${String(answer.errMsg)}`;
export const failure = (values: Values) => ({ ...(values['err-code'] === undefined ? {} : { errCode: values['err-code'] }), ...(values['err-msg'] === undefined ? {} : { errMsg: values['err-msg'] }) });
export const FAILURE_OPTIONS = ['err-code', 'err-msg'] as const;
/** `a, b and c` (or `or`). */
export const listed = (items: readonly string[], last = 'and') => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${last} ${String(items.at(-1))}`);
/** A whole number option as a number, or as given (the mock refuses it with its reason). */
export function wholeNumber(value: string | boolean | undefined): number | string {
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : String(value);
}
/** A paragraph in lines of at most `width` characters. */
export function wrapped(text: string, width = 110): string {
  return text.split(' ').reduce<string[]>((lines, word) => {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
    return lines;
  }, []).join('\n');
}

/** A verb's help row: the verb in a gutter of 20 columns, then its text; a verb too long for the gutter has a line of its own. */
export const helpRow = (name: string, text: string): string => gutter('  ', 20, name, text);
/** An option's help row, in a gutter of 17 columns alike. */
export const optionRow = (name: string, text: string): string => gutter('      ', 17, name, text);
const gutter = (indent: string, width: number, name: string, text: string): string =>
  name.length < width ? `${indent}${name.padEnd(width)}${text}` : `${indent}${name}\n${indent}${''.padEnd(width)}${text}`;
