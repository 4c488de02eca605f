/**
 * A mistake in a command's arguments or files, shared by `mock`, `sign` and `verify`.
 *
 * @module
 */

/** A mistake in the command line or the config file: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/**
 * parseArgs' message for an option it does not know, without repeating the option when it may hold a value
 * run into a flag (`--merchantM1:app:secret`, `--secret-envTOKEN`); `undefined` for any other mistake.
 */
export function unknownOptionMistake(error: unknown, flags: Readonly<Record<string, unknown>>): string | undefined {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return undefined;
  const name = /^Unknown option '([^']*)'/.exec(String(message))?.[1] ?? '';
  const runInto = Object.keys(flags).find((flag) => name.startsWith(`--${flag}`));
  // A flag's name is lowercase words: anything else (or a known flag with more after it) may be a value.
  if (runInto === undefined && /^(?:-[a-zA-Z]|--[a-z][a-z-]{0,30})$/.test(name)) return `Unknown option '${name}'`;
  const advice = runInto === undefined ? 'check the spelling of each option' : `write --${runInto} VALUE or --${runInto}=VALUE`;
  return `an unknown option (not repeated here, in case a value was run into it): ${advice}`;
}
