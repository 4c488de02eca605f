// `payment-gateway-sdk mock`'s request log, from main() in-process with captured streams: one checkout as the
// terminal shows it, a refused signature explained without the secret, and --quiet.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { GatewayClient, PayOrderState } from '../../src/index.js';
import { md5Hex } from '../../src/protocol/signing/md5.js';
import { signingString } from '../../src/protocol/signing/sign.js';
import { eventually } from '../support/mock-command.js';
import { startNotifyEndpoint } from '../support/notify-endpoint.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-shop', secret: 'log-test-secret-9f2c' };

class Captured extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** `payment-gateway-sdk mock …args` in this process; `stop()` stands for SIGTERM and resolves to the exit code. */
async function startCommand(args: readonly string[]) {
  const out = new Captured();
  const err = new Captured();
  let stop!: (signal: string) => void;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  const exit = main(['mock', '--port', '0', '--merchant', `${MERCHANT.mchNo}:${MERCHANT.appId}:${MERCHANT.secret}`, ...args], out, err, { stdin: process.stdin, env: {}, stopped });
  const url = await eventually(() => (out.text.includes('Ctrl-C stops.') ? out.text.slice(0, out.text.indexOf('\n')) : undefined));
  /** What was printed after the summary. */
  const log = () => out.text.slice(out.text.indexOf('Ctrl-C stops.\n') + 'Ctrl-C stops.\n'.length);
  return { url, out, err, log, stop: () => (stop('SIGTERM'), exit) };
}

/** One checkout: create, the payer pays on the cashier page, the notification is delivered, the shop queries. */
async function checkout(url: string, notifyUrl: string, mchOrderNo: string) {
  const client = new GatewayClient({ baseUrl: url, ...MERCHANT });
  const order = await client.unifiedOrder({ mchOrderNo, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue, M', notifyUrl });
  await fetch(`${url}/cashier/${order.payOrderId}/pay`, { method: 'POST', redirect: 'manual' });
  return order;
}

let endpoint: Awaited<ReturnType<typeof startNotifyEndpoint>>;
beforeAll(async () => {
  endpoint = await startNotifyEndpoint();
});
afterAll(() => endpoint?.close());

describe('payment-gateway-sdk mock: the log', () => {
  it('prints one line per request and per notification attempt of a checkout', async () => {
    const command = await startCommand([]);
    expect(command.out.text).toContain('Each request and notification attempt is logged below');
    const order = await checkout(command.url, `${endpoint.url}/pay/notify`, 'log-1001');
    await eventually(() => (command.log().includes('notify N1 #1') ? true : undefined));
    expect((await new GatewayClient({ baseUrl: command.url, ...MERCHANT }).query({ mchOrderNo: 'log-1001' })).state).toBe(PayOrderState.Succeeded);
    await eventually(() => (command.log().includes(' query ') ? true : undefined));
    expect(await command.stop()).toBe(0);

    const lines = command.log().trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    const time = String.raw`\d\d:\d\d:\d\d\.\d{3}Z`;
    expect(lines[0]).toMatch(new RegExp(`^${time}  unifiedOrder +mchOrderNo=log-1001  SUCCESS payOrderId=${order.payOrderId} orderState=0 \\(Generated\\)  \\d+ ms$`));
    expect(lines[1]).toMatch(new RegExp(`^${time}  notify N1 #1 +payOrderId=${order.payOrderId}  POST ${endpoint.url}/pay/notify -> accepted: the body was "SUCCESS" \\(HTTP 200\\)  \\d+ ms$`));
    expect(lines[2]).toMatch(new RegExp(`^${time}  query +mchOrderNo=log-1001  SUCCESS payOrderId=${order.payOrderId} state=2 \\(Succeeded\\)  \\d+ ms$`));
    expect(lines[3]).toBe('');
    expect(lines[4]).toBe('SIGTERM: stopping the mock gateway');
    expect(command.err.text).toBe('');
  });

  it('explains a refused signature: the expected string with the secret as ***, the fields, the likely mistake', async () => {
    const command = await startCommand([]);
    const fields = { mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, version: '1.0.1', signType: 'MD5', reqTime: String(Date.now()), mchOrderNo: 'log-1002' };
    const hashed = `&${signingString(fields, MERCHANT.secret)}`; // a signer that starts the string with "&"
    const answer = await fetch(`${command.url}/api/pay/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...fields, sign: md5Hex(hashed) }) });
    expect(await answer.text()).toBe('{"code":9999,"msg":"验签失败"}');
    await eventually(() => (command.log().includes('fields:') ? true : undefined));
    expect(await command.stop()).toBe(0);

    const expected = signingString(fields, '***');
    expect(command.log()).toMatch(new RegExp(`  query +mchOrderNo=log-1002  9999 验签失败 \\(signature_invalid\\)  \\d+ ms\\n`));
    expect(command.log()).toContain(' '.repeat(15) + 'likely mistake: the string starts with "&"; fix: write each field as key=value& with no "&" before the first one\n');
    expect(command.log()).toContain(`${' '.repeat(15)}expected:   ${expected}\n`);
    expect(command.log()).toContain(`${' '.repeat(15)}you hashed: &${expected}\n`);
    expect(command.log()).toContain(`${' '.repeat(15)}fields:     6 signed (mchNo, appId, version, signType, reqTime, mchOrderNo); not signed: sign (the signature itself)\n`);
    expect(command.out.text).not.toContain(MERCHANT.secret);
    expect(command.out.text).not.toContain(signingString(fields, MERCHANT.secret));
  });

  it('--quiet prints the summary and the stop line only', async () => {
    const command = await startCommand(['--quiet']);
    expect(command.out.text).not.toContain('logged below');
    await checkout(command.url, `${endpoint.url}/pay/notify`, 'log-1003');
    const delivered = await eventually(async () => ((await (await fetch(`${command.url}/_mock/state`)).json()) as { notifications: { state: string }[] }).notifications.find((n) => n.state === 'delivered'));
    expect(delivered).toBeDefined();
    expect(await command.stop()).toBe(0);
    expect(command.log()).toBe('\nSIGTERM: stopping the mock gateway\n');
  });
});
