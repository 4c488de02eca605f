/**
 * `npm run demo`: the SDK's whole job on a fresh machine, with no account and no network beyond
 * 127.0.0.1. It starts the embedded mock gateway and a small merchant notify endpoint on loopback, then
 * walks through orders, a payment notification, a crypto settlement, refunds, a supplier payout and a division,
 * narrating each step.
 */
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { DivisionMode, Divisions, GatewayApiError, GatewayClient, isGatewayError, NOTIFICATION_ACK, PayOrderState, payOrderStateName, Refunds, Transfers } from 'payment-gateway-sdk';
import { createMockGateway } from 'payment-gateway-sdk/testing';

const MERCHANT = { mchNo: 'M1700000001', appId: '6630a1b2c3d4e5f6a7b8c9d0', secret: 'demo-secret-not-for-production' };
const ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
// The payee's account is personal data: shown by its last 4 characters only, as the SDK's own messages do.
const masked = (account: string): string => `***${account.slice(-4)}`;

/** Runs the walkthrough; `print` receives each line of the narrative. Resolves when everything is closed. */
export async function runDemo(print: (line: string) => void = console.log): Promise<void> {
  const step = (title: string) => print(`\n== ${title}`);
  const say = (text: string) => print(`   ${text}`);

  const gateway = createMockGateway({ merchants: [MERCHANT] });
  const server = await gateway.listen({ port: 0 });
  const client = new GatewayClient({ baseUrl: server.url, ...MERCHANT });
  const shop = await startNotifyEndpoint(client, say);
  try {
    print(`Mock gateway on ${server.url}; merchant notify endpoint on ${shop.url}`);

    step('1. Create an order (QR code payment)');
    const params = {
      mchOrderNo: 'demo-order-1001', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD',
      subject: 'T-shirt', body: 'Blue T-shirt, size M', notifyUrl: `${shop.url}/pay/notify`,
      channelExtra: { payDataType: 'codeImgUrl' },
    } as const;
    // The gateway's answer carries payData; an order recovered after a lost answer does not (step 6b).
    const order = await client.unifiedOrder(params);
    if (order.recovered) throw new Error('the demo gateway answered every create');
    say(`payOrderId ${order.payOrderId}, state ${order.orderState} (${payOrderStateName(order.orderState)})`);
    say(`payDataType ${order.payDataType}: show the payer ${order.payData}`);

    step('2. The payer pays (the gateway hears from the channel)');
    gateway.payOrder(order.payOrderId);
    say('order paid at the gateway; a notification is queued for the notifyUrl');

    step('3. Receive and verify the payment notification');
    const [delivery] = await gateway.deliverNotifications();
    say(`gateway delivery attempt ${delivery?.attempt}: merchant answered ${JSON.stringify(delivery?.response)} -> ${delivery?.delivered ? 'delivered' : 'will retry'}`);
    const forged = await shop.post({ ...(delivery?.fields ?? {}), amount: '1' });
    say(`a forged copy with amount=1 is answered ${JSON.stringify(forged)}: its signature does not match`);

    step('4. Query the order');
    const paid = await client.query({ mchOrderNo: 'demo-order-1001' });
    say(`state ${paid.state} (${payOrderStateName(paid.state)}), amount ${paid.amount} ${paid.currency}, paid at ${new Date(paid.successTime ?? 0).toISOString()}`);

    step('5. Create another order and close it');
    const second = await client.unifiedOrder({ mchOrderNo: 'demo-order-1002', wayCode: 'ALI_WAP', amount: 500, currency: 'USD', subject: 'Socks', body: 'Wool socks' });
    say(`payOrderId ${second.payOrderId}, state ${second.orderState} (${payOrderStateName(second.orderState)}), redirect to ${second.recovered ? '(no payData)' : second.payData}`);
    await client.close({ mchOrderNo: 'demo-order-1002' });
    const closed = await client.query({ mchOrderNo: 'demo-order-1002' });
    say(`closed: state ${closed.state} (${payOrderStateName(closed.state)})`);
    try {
      await client.close({ mchOrderNo: 'demo-order-1001' });
    } catch (error) {
      if (!(error instanceof GatewayApiError)) throw error;
      say(`closing the paid order is refused: code ${error.code}, msg ${error.msg}`);
    }

    step('6. A channel failure (barcode payment declined)');
    gateway.declineNextPayment({ errCode: 'ACQ.PAYMENT_AUTH_CODE_INVALID', errMsg: 'the payment code is invalid or expired' });
    const declined = await client.unifiedOrder({
      mchOrderNo: 'demo-order-1003', wayCode: 'ALI_BAR', amount: 800, currency: 'USD', subject: 'Coffee', body: 'Latte',
      channelExtra: { authCode: '28763443825664394' },
    });
    say(`a result, not an exception: state ${declined.orderState} (${payOrderStateName(declined.orderState)}), ${declined.errCode}: ${declined.errMsg}`);

    step('6b. The answer to a create is lost after the gateway made the order');
    gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
    const hats = { mchOrderNo: 'demo-order-1004', wayCode: 'QR_CASHIER', amount: 1200, currency: 'USD', subject: 'Hat', body: 'Wool hat' } as const;
    let hat = await client.unifiedOrder(hats);
    say(`found by a lookup instead of created twice: recovered ${hat.recovered}, state ${hat.orderState}, no payData to show`);
    for (let attempt = 2; hat.recovered; attempt++) hat = await client.reissueOrder(hat, { ...hats, mchOrderNo: `demo-order-1004-${attempt}` });
    say(`reissued: ${hats.mchOrderNo} closed, ${hat.mchOrderNo} created; show the payer ${hat.payData}`);

    step('7. Declare a settlement address; the platform approves it');
    const declared = await client.settleAddressApply({ requestId: 'demo-addr-1', tokenId: 'TRON_USDT', address: ADDRESS, remark: 'treasury' });
    say(`declared ${ADDRESS}: serverRequestId ${declared.serverRequestId}, status ${declared.status} (under review)`);
    gateway.approveAddress(declared.serverRequestId);
    say('approved by the platform');

    step('8. Request a settlement to it and read it back');
    const settlement = await client.settleRequest({
      requestId: 'demo-settle-2024-07', amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD',
      addrServerRequestId: declared.serverRequestId,
    });
    say(`settlement ${settlement.serverRequestId}, status ${settlement.status}`);
    gateway.progressSettlement('demo-settle-2024-07', 'completed');
    const record = await client.settleRequestGet({ requestId: 'demo-settle-2024-07' });
    say(`read back: ${record.amount} minor units of ${record.currency} as ${record.tokenId} to ${record.address}, status ${record.status}`);

    step('9. Refund part of the paid order, then the rest');
    const refund = await client.refundOrder({
      payOrderId: order.payOrderId, mchRefundNo: 'demo-refund-1001', refundAmount: 500, currency: 'USD',
      refundReason: 'Returned: wrong size', notifyUrl: `${shop.url}/pay/notify`,
    });
    say(`refund ${refund.refundOrderId}: ${refund.refundAmount} of ${refund.payAmount}, state ${refund.state} (${Refunds.stateName(refund.state)})`);
    await gateway.deliverNotifications();
    say(`the order after a partial refund: state ${(await client.query({ payOrderId: order.payOrderId })).state} (still paid)`);
    // A retried job sends the same refund again: the same mchRefundNo is the idempotency key.
    const again = await client.withResponse('refundOrder', { payOrderId: order.payOrderId, mchRefundNo: 'demo-refund-1001', refundAmount: 500, currency: 'USD', refundReason: 'Returned: wrong size' });
    say(`the same refund again resolves to ${again.data.refundOrderId} (replayed: ${again.replayed}), nothing refunded twice`);
    await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: 'demo-refund-1002', refundAmount: 1499, currency: 'USD', refundReason: 'Returned: the rest' });
    const refunded = await client.query({ payOrderId: order.payOrderId });
    say(`the order after the rest: state ${refunded.state} (${payOrderStateName(refunded.state)})`);

    step('10. Pay a supplier (a transfer out to a WeChat wallet)');
    // mchOrderNo is the transfer's key, kept before calling: a lost answer is looked up by it, never paid twice.
    const payout = {
      mchOrderNo: 'demo-payout-1001', ifCode: 'wxpay', entryType: 'WX_CASH', amount: 1500, currency: 'CNY',
      accountNo: 'o8xYz0123456789', accountName: 'Li Lei', transferDesc: 'Supplier payout, November', notifyUrl: `${shop.url}/pay/notify`,
    } as const;
    const transfer = await client.transferOrder(payout);
    say(`transfer ${transfer.transferId}: ${transfer.amount} ${payout.currency} to ${masked(transfer.accountNo)}, state ${transfer.state} (${Transfers.stateName(transfer.state)})`);
    const [payoutDelivery] = await gateway.deliverNotifications();
    say(`gateway delivery attempt ${payoutDelivery?.attempt}: merchant answered ${JSON.stringify(payoutDelivery?.response)} -> ${payoutDelivery?.delivered ? 'delivered' : 'will retry'}`);
    const paidOut = await client.transferQuery({ mchOrderNo: payout.mchOrderNo });
    say(`read back: ${paidOut.amount} ${paidOut.currency} by ${paidOut.entryType} to ${masked(paidOut.accountNo)}, state ${paidOut.state} (${Transfers.stateName(paidOut.state)})`);

    step('11. Share a paid order with a seller (division: bind once, divide once)');
    // The receiver group is made in the merchant portal (no API); the mock makes it by control.
    const { receiverGroupId } = gateway.createDivisionGroup({ name: 'Sellers' });
    const seller = await client.bindDivisionReceiver({
      ifCode: 'wxpay', receiverGroupId, accType: Divisions.AccountType.Person, accNo: 'o8xSeller0042',
      relationType: 'PARTNER', divisionProfit: '0.2',
    });
    if (seller.bindState !== Divisions.BindState.Bound) throw new Error('the demo channel binds every receiver');
    say(`receiver ${seller.receiverId} bound in group ${receiverGroupId}: ${masked(seller.accNo)}, default share ${seller.divisionProfit}`);
    const shared = await client.unifiedOrder({ ...params, mchOrderNo: 'demo-order-2001', wayCode: 'WX_NATIVE', amount: 10000, divisionMode: DivisionMode.Manual, notifyUrl: undefined });
    gateway.payOrder(shared.payOrderId);
    gateway.setOrderFee(shared.payOrderId, 60);
    // Once, and never again for this order: a lost answer is an unknown outcome the merchant portal settles.
    const division = await client.executeDivision({ payOrderId: shared.payOrderId, receivers: [{ receiverId: seller.receiverId, divisionProfit: '0.25' }] });
    say(`executeDivision: state ${division.state} (${Divisions.execStateName(division.state)})`);
    for (const record of gateway.state().divisionRecords.filter((r) => r.payOrderId === shared.payOrderId)) {
      say(`the gateway's record: ${record.calDivisionAmount} ${record.currency} of the 9940 left after its fee to ${record.account} (share ${record.divisionProfit})`);
    }

    print(`\nDone: ${gateway.requests.length} signed requests, each success answer's signature verified, ${shop.fulfilled.size} order fulfilled, ${shop.paidOut.size} supplier paid.`);
  } finally {
    await shop.close();
    await server.close();
  }
}

/**
 * The merchant's side: verifies each notification with the SDK (every received field but `sign`, and
 * that it is for this merchant application), acts on a paid order or a paid-out transfer once, and acknowledges
 * with `SUCCESS`.
 */
async function startNotifyEndpoint(client: GatewayClient, say: (text: string) => void) {
  const fulfilled = new Set<string>();
  const paidOut = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      // One notify URL for payments, refunds and transfers: a refund's or a transfer's state 2 is money leaving
      // the shop, never a payment.
      const received = new URLSearchParams(body.toString());
      const handled = received.has('transferId')
        ? client.verifyTransferNotification(body).then((transfer) => {
            if (transfer.state === Transfers.State.Succeeded && !paidOut.has(transfer.idempotencyKey)) {
              paidOut.add(transfer.idempotencyKey);
              say(`notify endpoint: verified transfer ${transfer.mchOrderNo} (${transfer.transferId}): ${transfer.amount} ${transfer.currency} paid out to ${masked(transfer.accountNo)}`);
            }
          })
        : received.has('refundOrderId')
        ? client.verifyRefundNotification(body).then((refund) => {
            if (refund.state === Refunds.State.Succeeded) say(`notify endpoint: verified refund ${refund.mchRefundNo} of ${refund.payOrderId}: ${refund.refundAmount} ${refund.currency} back to the payer`);
          })
        : client.verifyNotification(body).then((notification) => {
            if (notification.state === PayOrderState.Succeeded && !fulfilled.has(notification.idempotencyKey)) {
              fulfilled.add(notification.idempotencyKey);
              say(`notify endpoint: verified ${notification.mchOrderNo} (${notification.payOrderId}) paid ${notification.amount} ${notification.currency}; fulfilling it`);
            }
          });
      handled.then(
        () => res.end(NOTIFICATION_ACK),
        (error: unknown) => {
          if (!isGatewayError(error)) throw error;
          res.statusCode = 400;
          res.end('FAIL');
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    fulfilled,
    paidOut,
    /** Posts a form as the gateway would; resolves to the endpoint's answer. */
    post: async (fields: Record<string, string>) =>
      (await fetch(`${url}/pay/notify`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) })).text(),
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  runDemo().then(
    () => console.log(`(${Math.round(performance.now() - started)} ms)`),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
