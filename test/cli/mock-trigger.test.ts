// `payment-gateway-sdk mock pay|fail|expire ORDER` (and the refund triggers) in this process, against a mock listening on loopback:
// each drives the control API and prints the order's new state; mistakes get exit code 2, refusals 1.
// test/cli/mock.slow.test.ts runs it as a child process against the mock command.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient, PayOrderState, RefundOrderState } from '../../src/index.js';
import { createMockGateway, type MockGatewayServer } from '../../src/testing/index.js';
import { runInProcess } from '../support/cli-in-process.js';
import { listenOnLoopback, type Running } from '../support/loopback-server.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-trigger', secret: 'trigger-secret' };
const gateway = createMockGateway({ merchants: [MERCHANT], clock: 'manual' });
let server: MockGatewayServer;
let client: GatewayClient;

beforeAll(async () => {
  server = await gateway.listen({ port: 0 });
  client = new GatewayClient({ baseUrl: server.url, ...MERCHANT });
});
afterAll(() => server.close());

const create = (mchOrderNo: string) => client.unifiedOrder({ mchOrderNo, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue, M', notifyUrl: 'http://127.0.0.1:9/pay/notify' });

describe('payment-gateway-sdk mock pay|fail|expire|refund-succeed|refund-fail|refund-close|refund-mode', () => {
  it('pay: by mchOrderNo, the order is paid and its notification queued; prints the state by name', async () => {
    const order = await create('trigger-pay');
    const result = await runInProcess(['mock', 'pay', 'trigger-pay', '--url', server.url]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(new RegExp(`^payOrderId ${order.payOrderId}  mchOrderNo trigger-pay  state 2 \\(Succeeded\\); its notification goes out`));
    expect(gateway.order('trigger-pay')?.state).toBe(PayOrderState.Succeeded);
    expect(gateway.notifications.map((n) => n.payOrderId)).toContain(order.payOrderId);
  });

  it('fail: by payOrderId, with the channel error given; expire: closes the order; the URL from PAYMENT_GATEWAY_MOCK_URL', async () => {
    const failing = await create('trigger-fail');
    const failed = await runInProcess(['mock', 'fail', failing.payOrderId, '--err-code', 'CARD_DECLINED', '--err-msg', 'insufficient funds'], '', { PAYMENT_GATEWAY_MOCK_URL: server.url });
    expect(failed.code).toBe(0);
    expect(failed.stdout).toContain('state 3 (Failed)  errCode CARD_DECLINED  errMsg insufficient funds\n');
    expect(gateway.order('trigger-fail')).toMatchObject({ state: PayOrderState.Failed, errCode: 'CARD_DECLINED', errMsg: 'insufficient funds' });

    await create('trigger-expire');
    await create('trigger-other');
    const expired = await runInProcess(['mock', 'expire', 'trigger-expire'], '', { PAYMENT_GATEWAY_MOCK_URL: `${server.url}/` });
    expect(expired.stdout).toContain('state 6 (Closed)\n');
    expect((await client.query({ mchOrderNo: 'trigger-expire' })).state).toBe(PayOrderState.Closed);
    expect(gateway.order('trigger-other')?.state).toBe(PayOrderState.Generated); // only the order named
  });

  it('refund-mode hold, then refund-succeed by mchRefundNo, refund-fail by refundOrderId, refund-close: states by name', async () => {
    await create('trigger-refund');
    gateway.payOrder('trigger-refund');
    const hold = await runInProcess(['mock', 'refund-mode', 'hold', '--url', server.url]);
    expect(hold).toMatchObject({ code: 0, stderr: '', stdout: 'refund mode hold: coming refunds wait in state 1 (Refunding) until mock refund-succeed|refund-fail|refund-close REFUND\n' });
    const refund = (mchRefundNo: string, refundAmount: number) =>
      client.refundOrder({ mchOrderNo: 'trigger-refund', mchRefundNo, refundAmount, currency: 'USD', refundReason: 'Returned', notifyUrl: 'http://127.0.0.1:9/refund/notify' });
    const first = await refund('trigger-r1', 500);
    expect(first.state).toBe(RefundOrderState.Refunding);
    const succeeded = await runInProcess(['mock', 'refund-succeed', 'trigger-r1', '--url', server.url]);
    expect(succeeded).toMatchObject({ code: 0, stderr: '' });
    expect(succeeded.stdout).toMatch(new RegExp(`^refundOrderId ${first.refundOrderId}  mchRefundNo trigger-r1  state 2 \\(Succeeded\\); its notification goes out`));
    expect(gateway.notifications.map((n) => n.mchRefundNo)).toContain('trigger-r1');

    const second = await refund('trigger-r2', 600);
    const failed = await runInProcess(['mock', 'refund-fail', second.refundOrderId, '--err-code', 'NOT_ENOUGH_BALANCE', '--err-msg', 'balance too low'], '', { PAYMENT_GATEWAY_MOCK_URL: server.url });
    expect(failed.stdout).toContain('mchRefundNo trigger-r2  state 3 (Failed)  errCode NOT_ENOUGH_BALANCE  errMsg balance too low');
    await refund('trigger-r3', 700);
    const closed = await runInProcess(['mock', 'refund-close', 'trigger-r3', '--url', server.url]);
    expect(closed.stdout).toMatch(/mchRefundNo trigger-r3  state 4 \(Closed\); no notification\n$/);
    expect((await client.refundQuery({ mchRefundNo: 'trigger-r3' })).state).toBe(RefundOrderState.Closed);

    const again = await runInProcess(['mock', 'refund-succeed', 'trigger-r3', '--url', server.url]);
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(again.stderr).toMatch(/the mock refused: settleRefund: refund R\d+ is Closed \(state 4\); only refunds in state 0 or 1 can change/);
    expect((await runInProcess(['mock', 'refund-close', 'no-such-refund', '--url', server.url])).stderr).toBe(
      'payment-gateway-sdk mock refund-close: the mock refused: settleRefund: no refund with refundOrderId or mchRefundNo "no-such-refund"\n',
    );
    const back = await runInProcess(['mock', 'refund-mode', 'succeed', '--url', server.url]);
    expect(back.stdout).toBe('refund mode succeed: coming refunds are refunded (state 2) at once\n');
    expect((await refund('trigger-r4', 100)).state).toBe(RefundOrderState.Succeeded);
    expect(gateway.order('trigger-refund')?.state).toBe(PayOrderState.Succeeded); // 600 of 1999 refunded
  });

  it('refund-mode --refund: one refund\'s own mode; refund-unsupported by order, --way-code, --allow: the channel refuses refunds', async () => {
    await create('trigger-unsupported');
    gateway.payOrder('trigger-unsupported');
    const refundOf = (mchRefundNo: string) =>
      client.refundOrder({ mchOrderNo: 'trigger-unsupported', mchRefundNo, refundAmount: 100, currency: 'USD', refundReason: 'Returned' });
    const one = await runInProcess(['mock', 'refund-mode', 'fail', '--refund', 'trigger-u1', '--url', server.url]);
    expect(one).toMatchObject({ code: 0, stderr: '', stdout: 'refund mode fail for refund trigger-u1: it is failed (state 3) at once\n' });
    expect((await refundOf('trigger-u1')).state).toBe(RefundOrderState.Failed);
    expect((await refundOf('trigger-u2')).state).toBe(RefundOrderState.Succeeded); // the others follow the mode of all

    const byOrder = await runInProcess(['mock', 'refund-unsupported', 'trigger-unsupported', '--url', server.url]);
    expect(byOrder).toMatchObject({ code: 0, stdout: 'refunds of the order trigger-unsupported are refused: 当前通道不支持退款！ (refund_unsupported)\n' });
    await expect(refundOf('trigger-u3')).rejects.toMatchObject({ reason: 'refund_unsupported' });
    expect((await runInProcess(['mock', 'refund-unsupported', 'trigger-unsupported', '--allow', '--url', server.url])).stdout).toBe('refunds of the order trigger-unsupported go to the channel again\n');
    const byWay = await runInProcess(['mock', 'refund-unsupported', '--way-code', 'QR_CASHIER', '--url', server.url]);
    expect(byWay.stdout).toBe('refunds of the way code QR_CASHIER are refused: 当前通道不支持退款！ (refund_unsupported)\n');
    await expect(refundOf('trigger-u4')).rejects.toMatchObject({ reason: 'refund_unsupported' });
    await runInProcess(['mock', 'refund-unsupported', '--way-code', 'QR_CASHIER', '--allow', '--url', server.url]);
    expect((await refundOf('trigger-u5')).state).toBe(RefundOrderState.Succeeded);
  });

  it('resend REF...: each notification again with its original reqTime and sign; list: what the mock holds, hostile text escaped', async () => {
    const order = await client.unifiedOrder({ mchOrderNo: 'trigger-resend', wayCode: 'QR_CASHIER', amount: 500, currency: 'USD', subject: 'Mug', body: 'White', notifyUrl: 'http://127.0.0.1:9/pay/notify' });
    gateway.payOrder(order.payOrderId);
    await client.refundOrder({ mchOrderNo: 'trigger-resend', mchRefundNo: 'trigger-resend-r', refundAmount: 200, currency: 'USD', refundReason: 'Chipped\u001b[2J', notifyUrl: 'http://127.0.0.1:9/refund/notify' });
    await gateway.deliverNotifications();
    const firsts = gateway.deliveries.filter((d) => d.payOrderId === order.payOrderId);
    const resent = await runInProcess(['mock', 'resend', 'trigger-resend', 'trigger-resend-r', '--url', server.url]);
    expect(resent.code).toBe(0);
    const lines = resent.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^N\d+ resent to http:\/\/127\.0\.0\.1:9\/pay\/notify \(attempt 2, its original reqTime and sign\): not delivered, /);
    expect(lines[1]).toMatch(/^N\d+ resent to http:\/\/127\.0\.0\.1:9\/refund\/notify \(attempt 2/);
    const again = gateway.deliveries.filter((d) => d.payOrderId === order.payOrderId && d.resend);
    expect(again.map((d) => d.fields)).toEqual(firsts.map((d) => d.fields));
    const missing = await runInProcess(['mock', 'resend', 'trigger-resend', 'no-such-ref', '--url', server.url]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/the mock refused: resendNotification: no notification "no-such-ref"/);

    const list = await runInProcess(['mock', 'list', '--url', server.url]);
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(list.stdout).toMatch(/^Orders \(\d+\)\n/);
    expect(list.stdout).toContain(`  ${order.payOrderId}  mchOrderNo trigger-resend  QR_CASHIER  amount 500 USD  state 2 (Succeeded)  refunds: trigger-resend-r 200 USD state 2 (Succeeded)\n`);
    expect(list.stdout).toMatch(/\n {2}R\d+ {2}mchRefundNo trigger-resend-r {2}of P\d+ {2}amount 200 USD {2}state 2 \(Succeeded\) {2}reason "Chipped\\u001b\[2J"\n/);
    // Delivered to port 9 (discard): refused, so still pending after the scheduled attempt and the resend.
    expect(list.stdout).toMatch(/\nNotifications \(\d+\)\n[\s\S]* {2}refund trigger-resend-r \(R\d+\) {2}pending after 2 attempt\(s\) {2}to http:\/\/127\.0\.0\.1:9\/refund\/notify\n/);
    expect(list.stdout).not.toContain('\u001b');
  });

  it('says what the mock refused (an unknown order, one already paid): exit code 1', async () => {
    const unknown = await runInProcess(['mock', 'pay', 'no-such-order', '--url', server.url]);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toBe('payment-gateway-sdk mock pay: the mock refused: payOrder: no order with payOrderId or mchOrderNo "no-such-order"\n');
    const twice = await runInProcess(['mock', 'expire', 'trigger-pay', '--url', server.url]);
    expect(twice.stderr).toMatch(/the mock refused: expireOrder: order P\d+ is Succeeded \(state 2\); only orders in state 0 or 1 can change/);
  });

  it('says when nothing (or something else) answers at the URL: exit code 1', async () => {
    const closed = createMockGateway({ merchants: [MERCHANT] });
    const gone = await closed.listen({ port: 0 });
    await gone.close();
    const unreachable = await runInProcess(['mock', 'pay', 'o-1', '--url', gone.url]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/cannot reach a mock at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): start one with payment-gateway-sdk mock, or give its URL with --url or PAYMENT_GATEWAY_MOCK_URL/);
    const other: Running = await listenOnLoopback(createServer((_req, res) => res.end('<html>not a mock</html>')));
    try {
      const stranger = await runInProcess(['mock', 'pay', 'o-1', '--url', new URL(other.url).origin]);
      expect(stranger.stderr).toMatch(/answered HTTP 200 without the mock's JSON: is it a payment-gateway-sdk mock\? \(check --url\)/);
    } finally {
      await other.close();
    }
  });

  it('reads a hostile answer safely: escape sequences printed escaped, a huge body cut off, a redirect not followed', async () => {
    const answers: ((res: import('node:http').ServerResponse) => void)[] = [
      (res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: '\u001b]0;pwned\u0007\u001b[2J\nvalid' })),
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"error":"${'x'.repeat(2 * 1024 * 1024)}"}`);
      },
      (res) => res.writeHead(307, { location: 'http://127.0.0.1:9/_mock/orders/o-1/pay' }).end(),
    ];
    const hostile: Running = await listenOnLoopback(createServer((_req, res) => answers.shift()?.(res)));
    try {
      const url = new URL(hostile.url).origin;
      const escaped = await runInProcess(['mock', 'pay', 'o-1', '--url', url]);
      expect(escaped.code).toBe(1);
      expect(escaped.stderr).toBe('payment-gateway-sdk mock pay: the mock refused: \\u001b]0;pwned\\u0007\\u001b[2J\\nvalid\n');
      expect((await runInProcess(['mock', 'pay', 'o-1', '--url', url])).stderr).toMatch(/answered HTTP 200 without the mock's JSON/);
      expect((await runInProcess(['mock', 'pay', 'o-1', '--url', url])).stderr).toMatch(/answered with a redirect, which is not followed/);
    } finally {
      await hostile.close();
    }
  });

  it.each([
    [['mock', 'pay'], /give one order: its payOrderId or your mchOrderNo/],
    [['mock', 'pay', 'a', 'b'], /give one order/],
    [['mock', 'expire', 'a', '--err-code', 'X'], /--err-code and --err-msg are options of fail/],
    [['mock', 'pay', 'a', '--url', 'not a url'], /--url must be the mock's base URL/],
    [['mock', 'pay', 'a', '--url', 'ftp://127.0.0.1'], /--url must be an http\(s\) URL/],
    [['mock', 'fail', 'a', '--bogus'], /Unknown option '--bogus'/],
    [['mock', 'refund-succeed'], /give one refund: its refundOrderId or your mchRefundNo/],
    [['mock', 'refund-close', 'r', '--err-msg', 'x'], /--err-code and --err-msg are options of fail, refund-fail, transfer-fail, receiver-refuse and division-outcome/],
    [['mock', 'refund-mode'], /give one mode: hold, succeed or fail/],
    [['mock', 'refund-mode', 'later'], /give one mode: hold, succeed or fail, e.g. .*, not "later"/],
    [['mock', 'pay', 'a', '--refund', 'r'], /--refund is an option of refund-mode/],
    [['mock', 'refund-unsupported'], /give one target: an order \(payOrderId or mchOrderNo\), --if-code CODE or --way-code CODE/],
    [['mock', 'refund-unsupported', 'o-1', '--if-code', 'wxpay'], /give one target/],
    [['mock', 'refund-mode', 'hold', '--allow'], /--allow is an option of refund-unsupported/],
    [['mock', 'resend'], /give one or more notification: its id \(N1\.\.\.\)/],
    [['mock', 'list', 'everything'], /takes no argument, not "everything"/],
  ])('%j is a usage mistake: exit code 2', async (args, message) => {
    const result = await runInProcess(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('--help prints its usage; the main usage lists it', async () => {
    expect((await runInProcess(['mock', 'pay', '--help'])).stdout).toMatch(/^Usage: payment-gateway-sdk mock pay\|fail\|expire ORDER/);
    expect((await runInProcess(['--help'])).stdout).toContain('payment-gateway-sdk mock pay|fail|expire ORDER [--url URL]');
    expect((await runInProcess(['mock', 'refund-mode', '--help'])).stdout).toContain('payment-gateway-sdk mock refund-succeed|refund-fail|refund-close REFUND');
    expect((await runInProcess(['--help'])).stdout).toContain('payment-gateway-sdk mock refund-mode hold|succeed|fail [--url URL]');
    expect((await runInProcess(['mock', 'list', '--help'])).stdout).toContain('payment-gateway-sdk mock resend REF... [--url URL]');
    expect((await runInProcess(['--help'])).stdout).toContain('payment-gateway-sdk mock list [--url URL]');
  });
});
