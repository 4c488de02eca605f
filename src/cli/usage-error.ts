/**
 * A mistake in a command's arguments or files, shared by `mock`, `sign` and `verify`.
 *
 * @module
 */

/** A mistake in the command line or the config file: printed with the usage, exit code 2. */
export class UsageError extends Error {}
