/**
 * What `payment-gateway-sdk sign` and `verify` read: their flags, the secret (from an environment variable
 * or a file, never from the command line, where every user of the machine can see it in `ps` and it stays
 * in the shell's history) and the body on stdin, held to a size limit.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { GatewayValidationError } from '../errors/index.js';
import { decodeUtf8 } from '../notify/input.js';
import { printable } from '../util/printable.js';
import { readCappedStream } from '../util/read-capped-stream.js';
import { BodyError, readMessage, type SignedMessage } from './signed-message.js';
import { readSecret, SECRET_ELSEWHERE, SECRET_FLAGS, secretSource, type SecretSource } from './secret-source.js';
import { unknownOptionMistake, UsageError } from './usage-error.js';

/** The largest body read from stdin. */
export const MAX_STDIN_BYTES = 1024 * 1024;

/** Where the commands read from: stdin and the environment (the process's, or a test's). */
export interface SigningCommandInput {
  readonly stdin: AsyncIterable<Uint8Array | string> & { readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The command's streams and inputs. */
export interface SigningCommandIo extends SigningCommandInput {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
}

/** Everything a command needs, read. */
interface SigningInput {
  readonly options: SigningOptions;
  readonly secret: string;
  readonly message: SignedMessage;
}

/**
 * Reads the options, the secret and the message; prints the usage (resolving to exit code 0) or what is
 * wrong with the command line or the body (exit code 2).
 */
export async function readSigningInput(command: 'sign' | 'verify', args: readonly string[], io: SigningCommandIo, usage: string): Promise<SigningInput | number> {
  try {
    const options = readSigningOptions(command, args);
    if (options.help) {
      io.out.write(usage);
      return 0;
    }
    const secret = readSecret(options.secret, io.env);
    return { options, secret, message: readMessage(await readStdin(io, io.err)) };
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof BodyError)) throw error;
    io.err.write(`payment-gateway-sdk ${command}: ${printable(error.message)}\n${error instanceof UsageError ? `Run payment-gateway-sdk ${command} --help for its options.\n` : ''}`);
    return 2;
  }
}

interface SigningOptions {
  readonly help: boolean;
  readonly secret: SecretSource;
  /** verify: received fields that are not signed (the notifyUrl's query keys). */
  readonly ignoreKeys: readonly string[];
}

const FLAGS = {
  ...SECRET_FLAGS,
  'ignore-key': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The options of `sign` or `verify` from their arguments (after the command's name). */
function readSigningOptions(command: 'sign' | 'verify', args: readonly string[]): SigningOptions {
  // Before parsing, so that neither a refusal nor parseArgs' own message repeats what may be the secret.
  if (args.some((arg) => /^--secret(?:=|$)/.test(arg))) {
    throw new UsageError(`--secret is refused: a secret given as an argument is visible to every user of this machine (ps, /proc) and stays in your shell history; ${SECRET_ELSEWHERE}`);
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: FLAGS, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(unknownOptionMistake(error, FLAGS) ?? (error instanceof Error ? error.message : String(error)));
  }
  if (parsed.positionals.length > 0) {
    throw new UsageError(`${command} takes no arguments (not repeated here, in case one was the secret): the body comes on stdin, and the secret from the environment or a file: ${SECRET_ELSEWHERE}`);
  }
  const { values } = parsed;
  if (command === 'sign' && values['ignore-key'] !== undefined) throw new UsageError('--ignore-key is an option of verify: sign signs every field it is given but sign');
  return { help: values.help ?? false, secret: secretSource(values), ignoreKeys: values['ignore-key'] ?? [] };
}

/** The body on stdin as text, at most {@link MAX_STDIN_BYTES}. */
async function readStdin(input: SigningCommandInput, err: NodeJS.WritableStream): Promise<string> {
  if (input.stdin.isTTY) err.write('Reading the body from stdin; end it with Ctrl-D (or pipe it in: ... < body.json).\n');
  const read = await readCappedStream(input.stdin, MAX_STDIN_BYTES);
  if (!read.complete) throw new BodyError(`the body on stdin is over ${MAX_STDIN_BYTES} bytes; a gateway message is a few kilobytes`);
  try {
    return decodeUtf8(read.bytes);
  } catch (error) {
    if (error instanceof GatewayValidationError) throw new BodyError(error.issues.map((issue) => issue.message).join('; '));
    throw error;
  }
}
