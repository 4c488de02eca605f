/**
 * `payment-gateway-sdk verify`: checks the signature of a received message from stdin and, when it is
 * wrong, names the most likely mistake of its signer (src/testing/domain/diagnose.ts).
 *
 * @module
 */
import { identifyKind, matchingKinds } from '../notify/identify.js';
import { notificationKinds, type DeclaredKind } from '../notify/kinds.js';
import { describeFields, diagnoseSignature, type SignatureDiagnosis } from '../testing/domain/diagnose.js';
import { printable } from '../util/printable.js';
import { coverage, type SignedMessage } from './signed-message.js';
import { DEFAULT_SECRET_ENV } from './secret-source.js';
import { readSigningInput, type SigningCommandIo } from './signing-input.js';

const VERIFY_USAGE = `Usage: payment-gateway-sdk verify [--secret-file FILE | --secret-env NAME] [--ignore-key KEY]... < message

Verifies the sign of the message on stdin: a notification (form or JSON), a request, or a response envelope
{code, msg, data, sign} (verified over data). The first line printed is the verdict: valid, or invalid and
the rule that failed (missing sign, wrong sign); for a wrong sign, the most likely mistake of the signer.
A notification's kind (${Object.keys(notificationKinds).join(', ')}) is named by its shape, as a notification processor
tells it. Strings are shown with the secret as ***. The secret is read from ${DEFAULT_SECRET_ENV}, never from the command line.

Options of verify:
      --secret-file FILE   read the secret from FILE (its final line break is dropped)
      --secret-env NAME    read the secret from the environment variable NAME (default ${DEFAULT_SECRET_ENV})
      --ignore-key KEY     a received field that is not signed, such as a key of your notifyUrl's query string
                           (repeat for several)
  -h, --help               this text

Exit codes: 0 valid; 1 invalid; 2 usage or an unreadable body.
`;

const VERDICTS: Record<SignatureDiagnosis['verdict'], string> = {
  valid: 'valid',
  'missing-sign': 'invalid: missing sign',
  'wrong-sign': 'invalid: wrong sign',
  unsignable: 'invalid: the message cannot be signed',
};

/** Runs `verify`; resolves to the exit code. */
export async function runVerify(args: readonly string[], io: SigningCommandIo): Promise<number> {
  const input = await readSigningInput('verify', args, io, VERIFY_USAGE);
  if (typeof input === 'number') return input;
  const { message, secret, options } = input;
  const { fields, unsigned } = splitIgnored(message, options.ignoreKeys);
  const diagnosis = diagnoseSignature({ fields, received: message.sign, secret, unsignedFields: unsigned });
  const lines = [VERDICTS[diagnosis.verdict], `covers:    ${coverage(message)}`, `fields:    ${describeFields(diagnosis.fields)}`];
  if (diagnosis.verdict !== 'unsignable') lines.push(`canonical: ${diagnosis.canonical}`);
  switch (diagnosis.verdict) {
    case 'valid':
      if (diagnosis.note) lines.push(`note:      ${diagnosis.note}`);
      if (message.plusAsSpace) lines.push(`note:      the form body's ${message.plusAsSpace} "+" were read as spaces, as the gateway reads them (form encoding); a literal + travels as %2B`);
      break;
    case 'missing-sign':
    case 'unsignable':
      lines.push(`problem:   ${diagnosis.problem}`);
      break;
    case 'wrong-sign':
      lines.push(`expected:  ${diagnosis.expectedSign}`, `received:  ${String(message.sign)}`);
      if (diagnosis.mistake) {
        lines.push(`mistake:   ${diagnosis.mistake.summary}`, `it signed: ${diagnosis.mistake.signedString}`, `fix:       ${diagnosis.mistake.fix}`);
      } else {
        lines.push(`hint:      ${diagnosis.hint}`);
      }
      break;
  }
  const kind = message.kind === 'fields' ? kindLine(message, options.ignoreKeys) : undefined;
  if (kind) lines.push(kind);
  // Every line holds received text (field names, values, the sign): escaped, it stays on its line and reads as sent.
  io.out.write(`${lines.map(printable).join('\n')}\n`);
  return diagnosis.verdict === 'valid' ? 0 : 1;
}

const KINDS: readonly DeclaredKind[] = Object.values(notificationKinds);

/** Which notification the message is shaped as, as a processor tells (identify.ts); none for a request. */
function kindLine(message: SignedMessage, ignoreKeys: readonly string[]): string | undefined {
  if (matchingKinds(KINDS, message.fields, ignoreKeys).length === 0) return undefined;
  const kind = identifyKind(KINDS, message.fields, ignoreKeys);
  if (kind instanceof Error) return `kind:      none a processor takes: ${kind.message}`;
  return `kind:      a ${kind.label} (it has ${kind.identifiedBy.join(' and ')}): a processor runs ${Object.keys(kind.handlers).join(' or ')} for it`;
}

/** The message's signed fields without the ignored keys, which join the unsigned ones. */
function splitIgnored(message: SignedMessage, ignoreKeys: readonly string[]): { fields: Map<string, string | null>; unsigned: Map<string, string | null> } {
  const fields = new Map(message.fields);
  const unsigned = new Map(message.unsigned);
  for (const key of ignoreKeys) {
    if (!fields.has(key) || key === 'sign') continue;
    unsigned.set(key, fields.get(key) ?? null);
    fields.delete(key);
  }
  return { fields, unsigned };
}
