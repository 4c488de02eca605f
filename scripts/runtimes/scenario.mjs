// The end-to-end scenario of the runtime matrix: the same code on every runtime, given the package's module
// and the gateway's addresses. All six operations against the gateway on loopback, a typed API error,
// the payment notification for a paid order (and a tampered copy), and sign() on the signature vectors.
// Plain JavaScript with no runtime-specific API, so it runs unchanged on Node, Bun, Deno and workerd.

/** A failed expectation, naming the step. */
class ScenarioError extends Error {}

function expect(step, condition, detail) {
  if (!condition) throw new ScenarioError(`${step}: ${typeof detail === 'function' ? detail() : detail}`);
}

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}

/**
 * Runs the scenario; resolves with what was checked, or rejects with a ScenarioError naming the step.
 * `input`: `{ baseUrl, controlUrl, notifyUrl, merchant: { mchNo, appId, secret }, vectors, runId }`.
 */
export async function runScenario(sdk, input) {
  const { merchant, runId } = input;
  const client = new sdk.GatewayClient({ baseUrl: input.baseUrl, ...merchant, retry: { maxRetries: 0 } });
  const checked = [];
  const step = async (name, body) => {
    try {
      await body();
    } catch (error) {
      if (error instanceof ScenarioError) throw error;
      throw new ScenarioError(`${name}: ${error?.name ?? 'Error'}: ${error?.message ?? error}`);
    }
    checked.push(name);
  };
  const order = (n) => ({
    mchOrderNo: `${runId}-${n}`, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue T-shirt, size M',
    notifyUrl: input.notifyUrl, channelExtra: { payDataType: 'codeUrl' },
  });

  await step('sign vectors', () => {
    for (const v of input.vectors) {
      // A vector with keys equal but for case (a/A) has a signature that depends on field order: sign refuses it.
      const keys = Object.keys(v.params).filter((key) => key !== 'sign' && v.params[key] !== '' && v.params[key] != null).map((key) => key.toLowerCase());
      if (new Set(keys).size < keys.length) {
        let threw = false;
        try {
          sdk.sign(v.params, v.secret);
        } catch {
          threw = true;
        }
        expect('sign vectors', threw, () => `"${v.name}": case twins were signed instead of refused`);
        continue;
      }
      const got = sdk.sign(v.params, v.secret);
      expect('sign vectors', got === v.sign, () => `"${v.name}": got ${got}, expected ${v.sign}`);
    }
  });

  const paid = order('paid');
  await step('unifiedOrder', async () => {
    const result = await client.unifiedOrder(paid);
    expect('unifiedOrder', result.mchOrderNo === paid.mchOrderNo && typeof result.payOrderId === 'string', () => JSON.stringify(result));
    expect('unifiedOrder', result.orderState <= 1, () => `orderState ${result.orderState}`);
  });
  await step('query', async () => {
    const found = await client.query({ mchOrderNo: paid.mchOrderNo });
    expect('query', found.amount === 1999 && found.currency === 'USD' && found.state <= 1, () => JSON.stringify(found));
  });

  await step('notification', async () => {
    const response = await fetch(`${input.controlUrl}/pay`, { method: 'POST', body: JSON.stringify({ mchOrderNo: paid.mchOrderNo }) });
    const body = await response.text();
    expect('notification', response.ok, `the control server answered ${response.status}: ${body}`);
    // As a web handler receives it (Bun.serve, Deno.serve, a Worker's fetch): a Request.
    const request = new Request(input.notifyUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    const notification = await sdk.verifyNotification(request, merchant);
    expect('notification', notification.mchOrderNo === paid.mchOrderNo && notification.state === 2 && notification.amount === 1999, () => JSON.stringify(notification));
    const tampered = body.replace(/(^|&)amount=\d+/, '$1amount=1');
    expect('notification', tampered !== body, () => `no amount in ${body}`);
    const error = await rejection(sdk.verifyNotification(tampered, merchant));
    expect('notification', error instanceof sdk.GatewaySignatureError, () => `a tampered notification gave ${error}, not GatewaySignatureError`);
  });
  await step('query (paid)', async () => {
    const found = await client.query({ mchOrderNo: paid.mchOrderNo });
    expect('query (paid)', found.state === sdk.PayOrderState.Succeeded, () => `state ${found.state}`);
  });

  const closed = order('closed');
  await step('close', async () => {
    await client.unifiedOrder(closed);
    await client.close({ mchOrderNo: closed.mchOrderNo });
    const found = await client.query({ mchOrderNo: closed.mchOrderNo });
    expect('close', found.state === sdk.PayOrderState.Closed, () => `state after close ${found.state}`);
  });

  await step('API error', async () => {
    const error = await rejection(client.query({ mchOrderNo: `${runId}-missing` }));
    expect('API error', error instanceof sdk.GatewayApiError && error instanceof sdk.GatewayError, () => `expected GatewayApiError, got ${error}`);
  });
  await step('validation error', async () => {
    const error = await rejection(client.unifiedOrder({ ...order('invalid'), amount: 19.99 }));
    expect('validation error', error instanceof sdk.GatewayValidationError, () => `expected GatewayValidationError, got ${error}`);
  });

  const address = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
  await step('settleAddressApply', async () => {
    const result = await client.settleAddressApply({ requestId: `${runId}-addr`, tokenId: 'TRON_USDT', address, remark: 'runtime matrix' });
    expect('settleAddressApply', typeof result.serverRequestId === 'string' && Number.isInteger(result.status), () => JSON.stringify(result));
  });
  const settlement = { requestId: `${runId}-settle`, amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address };
  await step('settleRequest', async () => {
    const result = await client.settleRequest(settlement);
    expect('settleRequest', typeof result.serverRequestId === 'string', () => JSON.stringify(result));
  });
  await step('settleRequestGet', async () => {
    const record = await client.settleRequestGet({ requestId: settlement.requestId });
    expect('settleRequestGet', record.requestId === settlement.requestId && record.amount === 150000, () => JSON.stringify(record));
  });

  return { checked, userAgent: globalThis.navigator?.userAgent ?? 'unknown', md5: nodeCryptoAvailable() ? 'node:crypto' : 'pure-JS MD5' };
}

// Which MD5 the SDK will have picked, reported for the reader (the SDK's tests cover both paths).
function nodeCryptoAvailable() {
  try {
    return typeof globalThis.process?.getBuiltinModule?.('node:crypto')?.createHash === 'function';
  } catch {
    return false;
  }
}
