// What both module systems must do with the main entry: sign a shared vector, refuse bad input with a
// typed error before anything is sent, and build a client. Works on the module namespace or exports.
'use strict';

const VECTOR = {
  secret: 'offline-test-key',
  params: { version: '1.0', signType: 'MD5', reqTime: '1700000000123', mchNo: 'M1621873433953', appId: '60cc09bce4b0f1c0b83761c9', amount: 100 },
  sign: 'CE76B1B36C5B683AD2F8FB0FCA95055B',
};

async function exercise(sdk) {
  const done = [];
  const signature = sdk.sign(VECTOR.params, VECTOR.secret);
  if (signature !== VECTOR.sign) throw new Error(`sign() gave ${signature}, expected ${VECTOR.sign}`);
  done.push('sign');

  let sent = 0;
  const client = new sdk.GatewayClient({
    baseUrl: 'http://127.0.0.1:9',
    mchNo: 'M1',
    appId: 'app-1',
    secret: 'not-a-real-secret',
    fetch: async () => {
      sent += 1;
      throw new Error('nothing should be sent');
    },
  });
  done.push('new GatewayClient');

  const error = await client.query({}).then(
    () => undefined,
    (e) => e,
  );
  if (!(error instanceof sdk.GatewayValidationError) || !(error instanceof sdk.GatewayError) || !sdk.isGatewayError(error)) {
    throw new Error(`query({}) should reject with GatewayValidationError, got ${error}`);
  }
  if (sent !== 0) throw new Error('query({}) sent a request');
  done.push('GatewayValidationError');
  return done;
}

module.exports = { exercise };
