/**
 * `payment-gateway-sdk`: the package's command. `mock` runs the mock gateway as a server, for browsers and
 * for test suites in any language; its first line of output is the base URL alone, so scripts can read it.
 * `sign` and `verify` show how a body is signed and why a signature does not verify, for signers in any
 * language.
 *
 * @module
 */
import { MOCK_KINDS } from '../testing/domain/kinds.js';
import { nounOf } from '../testing/domain/record-kind.js';
import { controlUsage, kindSummary, kindUsage } from './kind-verbs.js';
import { listed, wrapped } from './trigger-spec.js';
import { partSummary, partVerbNames } from './part-verbs.js';
import { controlApiUsage, runMock, type MockCommandIo } from './mock-command.js';
import { readMockOptions } from './mock-options.js';
import { runSign } from './sign-command.js';
import { runTrigger, TRIGGERS, type Trigger } from './trigger-command.js';
import type { SigningCommandInput } from './signing-input.js';
import { UsageError } from './usage-error.js';
import { runVerify } from './verify-command.js';
import packageJson from '../../package.json' with { type: 'json' };

const USAGE = `Usage: payment-gateway-sdk mock [options]
${[...kindUsage(false), ...controlUsage()].map((line) => `       ${line}\n`).join('')}       payment-gateway-sdk mock ${partVerbNames().join('|')} ... [--url URL]
       payment-gateway-sdk mock resend REF... [--url URL]
       payment-gateway-sdk mock list [--url URL]
       payment-gateway-sdk sign [options] < body
       payment-gateway-sdk verify [options] < message
       payment-gateway-sdk --help | --version

Runs the mock Payment Gateway on loopback until Ctrl-C (SIGINT) or SIGTERM. The first line printed is the
base URL alone; give it to your client as baseUrl. The dashboard is that URL in a browser.

Options of mock:
  -p, --port N                 TCP port (default 4010; 0 picks a free one)
      --host HOST              interface to listen on (default 127.0.0.1, loopback only; 0.0.0.0: every
                               interface, answering to this machine's addresses)
      --public-url URL         the origin pages and payData use when people reach the mock by another
                               name (a LAN address, a tunnel, a proxy), e.g. https://mock.example
  -m, --merchant M:APP:SECRET  a merchant application (repeat for several); default: one generated and printed
  -m, --merchant M:APP         the same, its secret read from GATEWAY_SECRET or a file (ps shows no argument's)
      --secret-file FILE       the secret of each --merchant M:APP, from FILE (its final line break dropped)
      --secret-env NAME        the secret of each --merchant M:APP, from the variable NAME (default GATEWAY_SECRET)
      --forward-to URL         deliver every notification to URL instead of the order's notifyUrl
                               (default: only loopback notifyUrls are delivered)
  -c, --config FILE            JSON file with any of { merchants: [{ mchNo, appId, secret }], port, host,
                               publicUrl, forwardTo, clock, notifyRetryMs, quiet }; flags win
      --clock real|manual      real (default): expiries and notification retries run on the wall clock;
                               manual: time moves only with POST /_mock/clock/advance
      --notify-retry-ms N      the n-th notification retry comes n x N ms after a failure (default 30000)
  -q, --quiet                  no log; by default each request (operation, mchOrderNo/payOrderId/requestId,
                               outcome or refusal reason, ms, why a signature was refused) and each
                               notification attempt (URL, HTTP status, accepted or why not) is printed
  -h, --help                   this text

${wrapped(
  'The mock verbs drive a running mock over the control API below: ' +
    `${[kindSummary(), ...partSummary()].join('; ')}; mock resend REF... ` +
    `sends notifications again (by id, ${listed(MOCK_KINDS.map(nounOf), 'or')}); mock list prints what the mock holds.`,
)}
payment-gateway-sdk mock pay --help: their options.

${controlApiUsage()}
Web pages on this machine cannot use it: a Host other than the listen address, localhost or the public
URL's host is refused (DNS rebinding), and so is a POST or DELETE from another origin (403); requests
without an Origin header (your backend, curl) are accepted. Bodies are capped at 1 MiB (413).

sign and verify, for signers in any language (the secret comes from the GATEWAY_SECRET environment variable
or --secret-file FILE, never from an argument):
  sign < body         prints the string the gateway's rule hashes (the secret as ***) and the sign
  verify < message    prints valid, or the rule that failed and the signer's most likely mistake
                      (exit code 0 valid, 1 invalid)
  payment-gateway-sdk sign --help, payment-gateway-sdk verify --help: their options.
`;

/** Runs the command; resolves to the exit code (the mock itself runs until a signal, or `input.stopped`). */
export async function main(
  args: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
  input: SigningCommandInput & Pick<MockCommandIo, 'stopped'> = { stdin: process.stdin, env: process.env },
): Promise<number> {
  const [command, ...rest] = args;
  if (command === '--version' || command === '-v') {
    out.write(`${packageJson.version}\n`);
    return 0;
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    (command === undefined ? err : out).write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === 'sign') return runSign(rest, { out, err, ...input });
  if (command === 'verify') return runVerify(rest, { out, err, ...input });
  if (command !== 'mock') {
    err.write(`payment-gateway-sdk: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
    return 2;
  }
  if ((TRIGGERS as readonly string[]).includes(rest[0] ?? '')) return runTrigger(rest[0] as Trigger, rest.slice(1), { out, err, env: input.env });
  let options: ReturnType<typeof readMockOptions>;
  try {
    options = readMockOptions(rest, input.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err.write(`payment-gateway-sdk mock: ${error.message}\nRun payment-gateway-sdk --help for every option.\n`);
    return 2;
  }
  if (options.help) {
    out.write(USAGE);
    return 0;
  }
  return runMock(options, { out, err, stopped: input.stopped });
}
