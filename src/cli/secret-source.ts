/**
 * Where a command reads a merchant's secret: an environment variable or a file, which no other user of the
 * machine sees (an argument shows in `ps` and stays in the shell's history). Nothing here repeats a value that
 * may be the secret.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { UsageError } from './usage-error.js';

/** The environment variable the secret is read from unless `--secret-env` names another (the README's name). */
export const DEFAULT_SECRET_ENV = 'GATEWAY_SECRET';

/** The options that say where the secret is: `--secret-file FILE`, `--secret-env NAME`. */
export const SECRET_FLAGS = {
  'secret-file': { type: 'string' },
  'secret-env': { type: 'string' },
} as const;

/** Where the secret is read from. */
export interface SecretSource {
  /** `--secret-file`: read first when given. */
  readonly file: string | undefined;
  /** `--secret-env`, else {@link DEFAULT_SECRET_ENV}. */
  readonly envName: string;
}

// An option's value is never printed: --secret-env and --secret-file mixed up would print the secret.
const NOT_REPEATED = 'its value is not repeated here, in case the secret was given in its place: --secret-file takes a file path, --secret-env a variable name';
export const SECRET_ELSEWHERE = `put it in the ${DEFAULT_SECRET_ENV} environment variable (or the one --secret-env NAME names) or in a file given with --secret-file FILE`;

/** The source `--secret-file` and `--secret-env` name; a `--secret-env` that is no variable name is refused. */
export function secretSource(values: { readonly 'secret-file'?: string | undefined; readonly 'secret-env'?: string | undefined }): SecretSource {
  const envName = values['secret-env'] ?? DEFAULT_SECRET_ENV;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(envName)) throw new UsageError(`--secret-env must name an environment variable, such as ${DEFAULT_SECRET_ENV}`);
  return { file: values['secret-file'], envName };
}

/** The secret: from the file (its final line break dropped) or else the environment variable. */
export function readSecret(source: SecretSource, env: Readonly<Record<string, string | undefined>>): string {
  if (source.file !== undefined) {
    let text: string;
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (error) {
      throw new UsageError(`--secret-file: cannot read the file it names (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}; ${NOT_REPEATED}); ${SECRET_ELSEWHERE}`);
    }
    const secret = text.replace(/\r?\n$/, '');
    if (secret === '') throw new UsageError(`--secret-file: the file it names is empty (${NOT_REPEATED})`);
    return secret;
  }
  const secret = env[source.envName];
  if (secret === undefined || secret === '') {
    // The default name is ours to print; a name given with --secret-env is the caller's value, maybe the secret itself.
    const which = source.envName === DEFAULT_SECRET_ENV ? DEFAULT_SECRET_ENV : `the environment variable --secret-env names (${NOT_REPEATED})`;
    throw new UsageError(`no secret: ${which} is not set; ${SECRET_ELSEWHERE}`);
  }
  return secret;
}
