// A deliberately tiny gateway on 127.0.0.1 for the runtime matrix, used while the package has no
// `payment-gateway-sdk/testing` mock: it checks request signatures and answers signed envelopes for the six
// operations (paths from the package's own endpoint table, signatures from its `sign()`). It is not a
// model of the gateway: the mock gateway is. gateway.mjs picks the mock as soon as the package ships it.
import { createServer } from 'node:http';
import { endpoints, sign } from 'payment-gateway-sdk';

const refusal = (msg) => ({ code: 9999, msg });

/** Starts the stand-in for one merchant application; resolves with `{ url, pay(mchOrderNo), close() }`. */
export async function startStandInGateway(merchant) {
  const orders = new Map();
  const settlements = new Map();
  let serial = 0;
  const nextId = (prefix) => `${prefix}${Date.now()}${String(++serial).padStart(4, '0')}`;
  const success = (data) => ({ code: 200, msg: 'SUCCESS', data, sign: sign(data, merchant.secret) });
  const findOrder = (p) => [...orders.values()].find((o) => o.payOrderId === p.payOrderId || o.mchOrderNo === p.mchOrderNo);

  const operations = {
    unifiedOrder(p) {
      if ([...orders.values()].some((o) => o.mchOrderNo === p.mchOrderNo)) return refusal('商户订单号已存在');
      const order = {
        payOrderId: nextId('P'), mchNo: p.mchNo, appId: p.appId, mchOrderNo: p.mchOrderNo, ifCode: 'stand-in', wayCode: p.wayCode,
        amount: p.amount, currency: p.currency, state: 1, subject: p.subject, body: p.body, createdAt: Date.now(),
      };
      orders.set(order.payOrderId, order);
      return success({ payOrderId: order.payOrderId, mchOrderNo: order.mchOrderNo, orderState: 1, payDataType: 'codeUrl', payData: `stand-in://pay/${order.payOrderId}` });
    },
    query(p) {
      const order = findOrder(p);
      return order ? success(order) : refusal('订单不存在');
    },
    close(p) {
      const order = findOrder(p);
      if (!order) return refusal('订单不存在');
      if (order.state > 1) return refusal('当前订单不可关闭');
      order.state = 6;
      return success({});
    },
    settleAddressApply: () => success({ serverRequestId: nextId('A'), status: 0 }),
    settleRequest(p) {
      const record = { serverRequestId: nextId('S'), requestId: p.requestId, tokenId: p.tokenId, currency: p.currency, amount: p.amount, status: 0, address: p.address };
      settlements.set(p.requestId, record);
      return success({ serverRequestId: record.serverRequestId, status: record.status });
    },
    settleRequestGet(p) {
      const record = settlements.get(p.requestId);
      return record ? success(record) : refusal('记录不存在');
    },
  };
  const byPath = new Map(Object.entries(endpoints).map(([name, endpoint]) => [endpoint.path, operations[name]]));

  function answer(path, params) {
    const operation = byPath.get(path);
    if (!operation) return [404, { timestamp: new Date().toISOString(), status: 404, error: 'Not Found', path }];
    if (params.mchNo !== merchant.mchNo || params.appId !== merchant.appId) return [200, refusal('商户应用不存在')];
    const { sign: received, ...signed } = params;
    if (received !== sign(signed, merchant.secret)) return [200, refusal('验签失败')];
    return [200, operation(params)];
  }

  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    let status;
    let body;
    try {
      [status, body] = answer(new URL(req.url, 'http://stand-in').pathname, JSON.parse(text));
    } catch {
      [status, body] = [400, { status: 400, error: 'Bad Request' }];
    }
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));

  return {
    name: 'stand-in gateway (scripts/runtimes/stand-in-gateway.mjs)',
    url: `http://127.0.0.1:${server.address().port}`,
    /** Marks the order paid and returns the notification the gateway would POST (form body, every value a string). */
    async pay(mchOrderNo) {
      const order = findOrder({ mchOrderNo });
      if (!order) throw new Error(`stand-in: no order ${mchOrderNo}`);
      Object.assign(order, { state: 2, successTime: Date.now() });
      const fields = Object.fromEntries(Object.entries({ ...order, reqTime: Date.now() }).map(([k, v]) => [k, String(v)]));
      return new URLSearchParams({ ...fields, sign: sign(fields, merchant.secret) }).toString();
    },
    close: () => new Promise((resolve) => server.close(resolve).closeAllConnections()),
  };
}
