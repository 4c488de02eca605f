// `payment-gateway-sdk sign` and `verify` in this process (src/cli/main.ts with a given stdin and environment):
// how they read bodies and secrets, and that nothing they print holds the secret. The same commands run
// as child processes in test/cli/signing.slow.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_STDIN_BYTES } from '../../src/cli/signing-input.js';
import { sign, signingString } from '../../src/protocol/signing/sign.js';
import { runInProcess } from '../support/cli-in-process.js';
import { md5 } from '../support/md5.js';
import { TRANSFER_FIELDS } from '../support/notification.js';

const SECRET = 'cli-Secret-5e1f';
const env = { GATEWAY_SECRET: SECRET };
const ORDER = { mchNo: 'M1', appId: 'app-1', mchOrderNo: 'o-1', amount: 1999, currency: 'USD', extParam: '', reqTime: '1700000000000', version: '1.0.1', signType: 'MD5' };
const dir = mkdtempSync(join(tmpdir(), 'pgsdk-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the secret comes from the environment or a file, never from an argument', () => {
  it.each([['--secret', SECRET], [`--secret=${SECRET}`], [SECRET]])('refuses %s with the reason, without repeating it; exit code 2', async (...args) => {
    for (const command of ['sign', 'verify']) {
      const result = await runInProcess([command, ...args], JSON.stringify(ORDER), {});
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(args[0] === SECRET ? /takes no arguments/ : /--secret is refused: a secret given as an argument is visible to every user of this machine \(ps, \/proc\) and stays in your shell history/);
      expect(result.stderr).not.toContain(SECRET);
    }
  });

  it('reads GATEWAY_SECRET, another variable with --secret-env, or --secret-file (its final line break dropped, which wins)', async () => {
    const expected = sign({ ...ORDER }, SECRET);
    expect((await runInProcess(['sign'], JSON.stringify(ORDER), env)).stdout).toContain(`sign:      ${expected}\n`);
    expect((await runInProcess(['sign', '--secret-env', 'SHOP_EU_SECRET'], JSON.stringify(ORDER), { SHOP_EU_SECRET: SECRET })).stdout).toContain(expected);
    const file = join(dir, 'secret.txt');
    writeFileSync(file, `${SECRET}\n`);
    expect((await runInProcess(['sign', '--secret-file', file], JSON.stringify(ORDER), { GATEWAY_SECRET: 'another' })).stdout).toContain(expected);
  });

  it.each([
    [`--secret-env${SECRET}`, /an unknown option \(not repeated here, in case a value was run into it\): write --secret-env VALUE or --secret-env=VALUE/],
    [`--secret-file${SECRET}`, /an unknown option \(not repeated here, in case a value was run into it\): write --secret-file VALUE/],
    [`--${SECRET}`, /an unknown option \(not repeated here, in case a value was run into it\): check the spelling/],
    [`-${SECRET}`, /Unknown option '-c'/],
  ])('%s (a value run into its flag): refused as an unknown option without repeating it; exit code 2', async (arg, message) => {
    for (const command of ['sign', 'verify']) {
      const result = await runInProcess([command, arg], JSON.stringify(ORDER), {});
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toMatch(message);
      for (const part of [SECRET, SECRET.slice(0, 8), SECRET.slice(-8)]) expect(result.stderr).not.toContain(part);
    }
  });

  it('without a secret, says where to put it; exit code 2', async () => {
    const result = await runInProcess(['sign'], JSON.stringify(ORDER), {});
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/no secret: GATEWAY_SECRET is not set; put it in the GATEWAY_SECRET environment variable .* or in a file given with --secret-file FILE/);
    expect((await runInProcess(['sign', '--secret-file', join(dir, 'missing')], '{}', {})).stderr).toMatch(/--secret-file: cannot read the file it names \(ENOENT;/);
  });

  it.each([
    ['--secret-env', 'SECRET_NOT_A_FILE_7d2a'],
    ['--secret-file', 'SECRET_NOT_A_FILE_7d2a'],
    ['--secret-env', 'cli-Secret-5e1f'],
    ['--secret-file', 'cli Secret with spaces'],
  ])('%s given the secret instead of a name or a path: refused, exit code 2, the value repeated nowhere', async (flag, value) => {
    for (const command of ['sign', 'verify']) {
      const result = await runInProcess([command, flag, value], JSON.stringify(ORDER), {});
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toMatch(/not repeated here|must name an environment variable/);
      expect(result.stderr).not.toContain(value);
      for (const part of [value.slice(0, 8), value.slice(-8)]) expect(result.stderr).not.toContain(part);
    }
    const empty = join(dir, 'empty-secret');
    writeFileSync(empty, '');
    const result = await runInProcess(['sign', '--secret-file', empty], '{}', {});
    expect(result.stderr).toMatch(/--secret-file: the file it names is empty/);
    expect(result.stderr).not.toContain(empty);
  });

  it('prints the secret nowhere: not in the canonical string, a mistake found, or an error', async () => {
    const canonical = signingString({ ...ORDER }, SECRET);
    const variants = [md5(`&${canonical}`), md5(canonical.replace(`key=${SECRET}`, SECRET)), md5(`${canonical}\n`), md5(canonical), 'bad'];
    const runs = [
      await runInProcess(['sign'], JSON.stringify(ORDER), env),
      ...(await Promise.all(variants.map((received) => runInProcess(['verify'], JSON.stringify({ ...ORDER, sign: received }), env)))),
      await runInProcess(['sign'], '{"a":{"nested":1}}', env),
      await runInProcess(['verify'], '{"sign": "not json', env),
    ];
    expect(runs.map((r) => r.code)).toEqual([0, 1, 1, 1, 0, 1, 1, 2]);
    for (const run of runs) expect(run.stdout + run.stderr).not.toContain(SECRET);
    expect(runs[2]?.stdout).toContain(`it signed: ${canonical.replace(`key=${SECRET}`, '***')}\n`);
  });
});

describe('sign', () => {
  it('signs a request over every field but sign, and says whether the body\'s own sign is this one', async () => {
    const right = sign({ ...ORDER }, SECRET);
    const result = await runInProcess(['sign'], JSON.stringify({ ...ORDER, sign: 'OLD' }), env);
    expect(result.stdout).toBe(
      `signs:     a request or notification (json): every field but sign\ncanonical: ${signingString({ ...ORDER }, '***')}\nsign:      ${right}\nnote:      the body's own sign differs: payment-gateway-sdk verify says why\n`,
    );
  });

  it('signs a response envelope over data only, keeping 10.50 as written', async () => {
    const body = '{"code":200,"msg":"SUCCESS","data":{"amount":10.50,"state":2},"sign":""}';
    const result = await runInProcess(['sign'], body, env);
    expect(result.stdout).toContain('signs:     a response envelope (json): the members of data only, not code or msg\ncanonical: amount=10.50&state=2&key=***\n');
    expect(result.stdout).toContain(md5(`amount=10.50&state=2&key=${SECRET}`));
  });

  it('refuses an object value (the gateway signs text; channelExtra travels as a JSON string); exit code 1', async () => {
    const result = await runInProcess(['sign'], JSON.stringify({ ...ORDER, channelExtra: { authCode: '1' } }), env);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/channelExtra is a JSON object or array: the gateway signs text only\. Send such a field as a string holding its JSON/);
  });

  it('reads a form body, dropping the final line break echo adds', async () => {
    const result = await runInProcess(['sign'], 'b=2&a=caf%C3%A9+cr%C3%A8me\n', env);
    expect(result.stdout).toContain(`canonical: a=café crème&b=2&key=***\nsign:      ${md5(`a=café crème&b=2&key=${SECRET}`)}\n`);
  });

  it.each([
    ['', /the body is empty/],
    ['[1,2]', /a JSON array/],
    ['{"a":', /not valid JSON \(unexpected end of input/],
    ['a=1&a=2', /the form body cannot be read: a appears more than once/],
    ['{"a":"1","a":"2","sign":"x"}', /the JSON body cannot be read: "a" appears more than once/],
    ['{"code":200,"msg":"SUCCESS","data":{"state":2,"state":3},"sign":"x"}', /the JSON body cannot be read: "state" appears more than once/],
    ['x'.repeat(MAX_STDIN_BYTES + 1), /over 1048576 bytes/],
  ])('a body it cannot read (%#) is a usage error, exit code 2, for sign and verify', async (body, message) => {
    for (const command of ['sign', 'verify']) {
      const result = await runInProcess([command], body, env);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toMatch(message);
    }
  });
});

describe('verify', () => {
  it('verifies a form notification; --ignore-key leaves out the notifyUrl query keys; the first line is the verdict', async () => {
    const fields = { payOrderId: 'P1', amount: '58', state: '2', extParam: '' };
    const body = `${new URLSearchParams({ ...fields, shop: 'eu', sign: sign(fields, SECRET) })}`;
    const ignored = await runInProcess(['verify', '--ignore-key', 'shop'], body, env);
    expect(ignored.code).toBe(0);
    expect(ignored.stdout.split('\n').slice(0, 3)).toEqual([
      'valid',
      'covers:    a request or notification (form): every field but sign',
      'fields:    3 signed (payOrderId, amount, state); not signed: extParam (empty value), sign (the signature itself), shop (not signed by the gateway)',
    ]);
    const notIgnored = await runInProcess(['verify'], body, env);
    expect(notIgnored.code).toBe(1);
    expect(notIgnored.stdout).toMatch(/^invalid: wrong sign\n[\s\S]*mistake: {3}shop was not signed\n/);
    expect(notIgnored.stdout).toContain(`expected:  ${sign({ ...fields, shop: 'eu' }, SECRET)}\nreceived:  ${sign(fields, SECRET)}\n`);
  });

  it('names the kind of notification a message is shaped as: a refund is no payment, and a message of two kinds is none', async () => {
    const refund = { refundOrderId: 'R1', mchRefundNo: 'refund-1', payOrderId: 'P1', refundAmount: '500', state: '2' };
    const valid = await runInProcess(['verify'], `${new URLSearchParams({ ...refund, sign: sign(refund, SECRET) })}`, env);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toContain('\nkind:      a refund notification (it has refundOrderId and mchRefundNo): a processor runs onRefunded or onRefundFailed for it\n');
    const both = { ...refund, mchOrderNo: 'order-1' };
    const mixed = await runInProcess(['verify'], JSON.stringify({ ...both, sign: sign(both, SECRET) }), env);
    expect(mixed.stdout).toMatch(/\nkind: {6}none a processor takes: The message is shaped as a payment notification and as a refund notification, so it was not processed as either: a payment notification has payOrderId and mchOrderNo; a refund notification has refundOrderId and mchRefundNo/);
    const request = await runInProcess(['verify'], JSON.stringify({ mchNo: 'M1', amount: 1, sign: sign({ mchNo: 'M1', amount: '1' }, SECRET) }), env);
    expect(request.stdout).not.toContain('kind:');
  });

  it('names a signed transfer notification a transfer, never a payment though it has mchOrderNo, amount and state 2', async () => {
    const transfer = TRANSFER_FIELDS;
    const valid = await runInProcess(['verify'], `${new URLSearchParams({ ...transfer, sign: sign(transfer, SECRET) })}`, env);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toMatch(/^valid\n/);
    expect(valid.stdout).toMatch(/\nkind: {6}a transfer notification \(it has transferId and entryType\): a processor runs onTransferred or onTransferFailed for it\n/);
    expect(valid.stdout).not.toMatch(/payment notification|onPaid/);
    const tampered = await runInProcess(['verify'], `${new URLSearchParams({ ...transfer, amount: '150000', sign: sign(transfer, SECRET) })}`, env);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(/^invalid: wrong sign\n/);
  });

  it('explains a +-encoded form body: valid with + read as spaces; a signer that signed a bare + or a body whose spaces stayed +', async () => {
    const fields = { payOrderId: 'P1', amount: '58', subject: 'Blue T-shirt size M' };
    const plusEncoded = `${new URLSearchParams({ ...fields, sign: sign(fields, SECRET) })}`;
    expect(plusEncoded).toContain('subject=Blue+T-shirt+size+M');
    const valid = await runInProcess(['verify'], plusEncoded, env);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toContain('note:      the form body\'s 3 "+" were read as spaces, as the gateway reads them (form encoding); a literal + travels as %2B\n');

    // The signer signed "C++" and sent it unencoded: the gateway reads "C" and two spaces.
    const literal = `payOrderId=P1&amount=58&subject=C++&sign=${sign({ ...fields, subject: 'C++' }, SECRET)}`;
    const bare = await runInProcess(['verify'], literal, env);
    expect(bare.code).toBe(1);
    expect(bare.stdout).toMatch(/mistake: {3}the signer signed "\+" where the body holds a space \(subject: .*\): in a form body a bare \+ means a space\nit signed: .*subject=C\+\+&key=\*\*\*\nfix: {7}send a literal \+ as %2B/);

    // A form logged decoded with decodeURIComponent, pasted as JSON: its spaces are still +.
    const logged = await runInProcess(['verify'], JSON.stringify({ ...fields, subject: 'Blue+T-shirt+size+M', sign: sign(fields, SECRET) }), env);
    expect(logged.code).toBe(1);
    expect(logged.stdout).toMatch(/mistake: {3}spaces arrived as "\+" \(subject: .*\): the body was form-encoded and then read without form decoding\n/);
  });

  it('verifies a response over data; finds code and msg signed too; an error response has no sign', async () => {
    const data = { payOrderId: 'P1', state: 6 };
    const envelope = (s: string) => JSON.stringify({ code: 200, msg: 'SUCCESS', data, sign: s });
    expect((await runInProcess(['verify'], envelope(sign(data, SECRET)), env)).code).toBe(0);
    const whole = await runInProcess(['verify'], envelope(sign({ ...data, code: 200, msg: 'SUCCESS' }, SECRET)), env);
    expect(whole.stdout).toMatch(/mistake: {3}fields the gateway does not sign were signed \(code, msg\)/);
    const error = await runInProcess(['verify'], '{"code":9999,"msg":"验签失败"}', env);
    expect(error).toMatchObject({ code: 1 });
    expect(error.stdout).toMatch(/^invalid: missing sign\n[\s\S]*problem: {3}there is no sign/);
  });

  it('shows control characters escaped, so a value cannot forge a line of the report', async () => {
    const result = await runInProcess(['verify'], JSON.stringify({ memo: 'x\nvalid', sign: 'bad' }), env);
    expect(result.stdout.split('\n')[0]).toBe('invalid: wrong sign');
    expect(result.stdout).toContain('canonical: memo=x\\nvalid&key=***\n');
  });

  it('shows bidirectional overrides and C1 controls in a received field name escaped, on every line that names it', async () => {
    // U+202E reverses what follows on the terminal; U+009B is the one-byte CSI that starts an escape sequence.
    const name = 'amount\u202e1.0\u009b2J';
    const result = await runInProcess(['verify'], JSON.stringify({ [name]: '1', sign: 'bad' }), env);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(result.stdout).toContain('fields:    1 signed (amount\\u202e1.0\\u009b2J)');
    expect(result.stdout).toContain('canonical: amount\\u202e1.0\\u009b2J=1&key=***\n');
    const nested = await runInProcess(['sign'], JSON.stringify({ [name]: { a: 1 } }), env);
    expect(nested.code).toBe(1);
    expect(nested.stderr).toContain('amount\\u202e1.0\\u009b2J is a JSON object or array');
    expect(nested.stderr).not.toMatch(/[\u0080-\u009f\u202e]/);
  });
});
