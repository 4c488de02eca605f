/**
 * The merchant, request and signed query response shared by the bench and its loopback server, so the
 * server's answer verifies under the client's secret.
 */
import { signedEnvelope } from '../test/support/wire.js';

export const SECRET = 'jeepay-test-secret-0123456789';

export const REQUEST_PARAMS = {
  mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', mchOrderNo: 'mho1623985457320', version: '1.0.1', signType: 'MD5', reqTime: '1623985460123',
};

export const PAY_ORDER = {
  payOrderId: 'P202106181104177050002', mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', mchOrderNo: 'mho1623985457320', ifCode: 'alipay',
  wayCode: 'ALI_BAR', amount: 58, currency: 'USD', state: 2, clientIp: '192.166.1.132', subject: 'T-shirt', body: 'Blue T-shirt',
  channelOrderNo: '2021061822001423031419593035', successTime: 1623985459000, createdAt: 1623985457705,
};

/** The gateway's answer to a query of PAY_ORDER, signed with SECRET. */
export const QUERY_RESPONSE_BODY = signedEnvelope(PAY_ORDER, SECRET);

/** Where the loopback server answers any POST with QUERY_RESPONSE_BODY, unchecked: for the peers, which do not sign. */
export const PEER_PATH = '/v1/peer';
