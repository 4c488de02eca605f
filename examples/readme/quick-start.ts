// The README's "Quick start" block: the lines between the readme markers are the README's, written by npm run docs:readme.
/** Your own numbering of orders. */
declare function nextOrderNumber(): Promise<string>;

// #region readme
import { GatewayClient, PayOrderState } from 'payment-gateway-sdk';

const client = new GatewayClient({
  baseUrl: 'https://pay.example.com',
  mchNo: process.env.GATEWAY_MCH_NO!,
  appId: process.env.GATEWAY_APP_ID!,
  secret: process.env.GATEWAY_SECRET!,
});

const params = {
  mchOrderNo: 'order-1001',          // your id: the gateway refuses a duplicate
  wayCode: 'QR_CASHIER',
  amount: 1999,                      // integer minor units: 19.99
  currency: 'USD',
  subject: 'T-shirt',
  body: 'Blue T-shirt, size M',
  notifyUrl: 'https://shop.example.com/pay/notify',
  channelExtra: { payDataType: 'codeImgUrl' },   // an object: serialized for you
} as const;
let order = await client.unifiedOrder(params);
// Rare: the answer was lost (a timeout, a reset) and the SDK found the order by its number instead of
// creating it twice; a lookup has no payData, so replace it with an order under a new number.
while (order.recovered) order = await client.reissueOrder(order, { ...params, mchOrderNo: await nextOrderNumber() });
console.log(order.payOrderId, order.payDataType, order.payData);

const latest = await client.query({ mchOrderNo: order.mchOrderNo });
if (latest.state === PayOrderState.Succeeded) console.log('paid', latest.successTime);
// #endregion readme

export {};
