/**
 * `payment-gateway-sdk sign`: signs a body from stdin as the gateway's rule does and shows the string it
 * hashed, the secret replaced by `***`. For signers written in any language to compare against.
 *
 * @module
 */
import { GatewayValidationError } from '../errors/index.js';
import { REDACTED_SECRET } from '../testing/domain/diagnose.js';
import { sign, signingString } from '../protocol/signing/sign.js';
import { signaturesEqual } from '../protocol/signing/verify.js';
import { printable } from '../util/printable.js';
import { coverage } from './signed-message.js';
import { DEFAULT_SECRET_ENV } from './secret-source.js';
import { readSigningInput, type SigningCommandIo } from './signing-input.js';

const SIGN_USAGE = `Usage: payment-gateway-sdk sign [--secret-file FILE | --secret-env NAME] < body

Signs the JSON or form body on stdin with the gateway's MD5 rule and prints the string it hashed (the
secret shown as ***) and the sign. A request, a notification: every field but sign is signed. A response
envelope {code, msg, data}: the members of data only. The secret is read from ${DEFAULT_SECRET_ENV}, never
from the command line.

Options of sign:
      --secret-file FILE   read the secret from FILE (its final line break is dropped)
      --secret-env NAME    read the secret from the environment variable NAME (default ${DEFAULT_SECRET_ENV})
  -h, --help               this text

Exit codes: 0 signed; 1 the body cannot be signed (an object value, broken text); 2 usage or an unreadable body.
`;

/** Runs `sign`; resolves to the exit code. */
export async function runSign(args: readonly string[], io: SigningCommandIo): Promise<number> {
  const input = await readSigningInput('sign', args, io, SIGN_USAGE);
  if (typeof input === 'number') return input;
  const { message, secret } = input;
  if (message.nested.length > 0) {
    io.err.write(`payment-gateway-sdk sign: ${printable(message.nested.join(', '))} ${message.nested.length > 1 ? 'are JSON objects or arrays' : 'is a JSON object or array'}: the gateway signs text only. Send such a field as a string holding its JSON (JSON.stringify it once) and sign that string.\n`);
    return 1;
  }
  let signature: string;
  try {
    signature = sign(message.fields, secret);
  } catch (error) {
    if (!(error instanceof GatewayValidationError)) throw error;
    io.err.write(`payment-gateway-sdk sign: ${printable(error.message)}\n`);
    return 1;
  }
  io.out.write(`signs:     ${coverage(message)}\ncanonical: ${printable(signingString(message.fields, REDACTED_SECRET))}\nsign:      ${signature}\n`);
  if (typeof message.sign === 'string' && message.sign !== '') {
    io.out.write(`note:      the body's own sign ${signaturesEqual(message.sign, signature) ? 'is this one' : 'differs: payment-gateway-sdk verify says why'}\n`);
  }
  return 0;
}
