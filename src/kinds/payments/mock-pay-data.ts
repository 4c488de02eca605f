/**
 * `payDataType`/`payData` by way code and `channelExtra`, as docs/reference/protocol.md section 4 describes them, plus
 * the `channelExtra` members each way code requires. Pay URLs and QR texts lead to the mock's own cashier
 * page, `{base}/cashier/{payOrderId}`, where a person can pay or fail the order; a QR image URL
 * (`codeImgUrl`) to an SVG QR code of that page's URL, `{base}/cashier/{payOrderId}/qr.svg`.
 *
 * @module
 */
import { isBarcodeWayCode, KNOWN_WAY_CODES } from './enums.js';
import { MESSAGES, refuse } from '../../testing/domain/refusals.js';

/**
 * Coin way codes are not published: the mock treats every way code starting with this as a coin way
 * (`COIN_<tokenId>`), whose `payData` is a deposit address and whose orders list on-chain transactions.
 *
 * @example
 * ```ts
 * await client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: `${COIN_WAY_CODE_PREFIX}TRON_USDT`, amount: 1050, currency: 'USD', subject: 's', body: 'b' });
 * ```
 */
export const COIN_WAY_CODE_PREFIX = 'COIN_';

/** Way codes whose `payDataType` the merchant may choose with `channelExtra.payDataType`, and their default. */
const SELECTABLE: Readonly<Record<string, 'codeUrl' | 'payurl'>> = {
  QR_CASHIER: 'codeUrl', ALI_QR: 'codeUrl', WX_NATIVE: 'codeUrl', ALI_OC: 'codeUrl', UP_QR: 'codeUrl',
  ALI_WAP: 'payurl', WX_H5: 'payurl', ALI_PC: 'payurl', UP_APP: 'payurl', UP_WAP: 'payurl', UP_B2B: 'payurl', UP_PC: 'payurl', UP_JSAPI: 'payurl',
};
const SELECTABLE_TYPES = ['payurl', 'form', 'codeUrl', 'codeImgUrl'];

/** Fixed pay-data types of the app/JS-API ways. */
const WALLET_TYPES: Readonly<Record<string, 'aliapp' | 'wxapp' | 'ysfapp'>> = {
  ALI_JSAPI: 'aliapp', ALI_LITE: 'aliapp', ALI_APP: 'aliapp',
  WX_JSAPI: 'wxapp', WX_LITE: 'wxapp', WX_APP: 'wxapp',
  YSF_JSAPI: 'ysfapp',
};

/** `channelExtra` members a way code cannot do without (docs/reference/protocol.md section 4). */
const REQUIRED_MEMBERS: Readonly<Record<string, string>> = {
  ALI_JSAPI: 'buyerUserId', ALI_LITE: 'buyerUserId', WX_JSAPI: 'openid', WX_LITE: 'openid',
};

/** Whether the mock gateway supports a way code: the known ones and any coin way. */
export function isSupportedWayCode(wayCode: string): boolean {
  return (KNOWN_WAY_CODES as readonly string[]).includes(wayCode) || isCoinWayCode(wayCode);
}

/** Whether a way code is a coin way (`COIN_<tokenId>`, e.g. `COIN_TRON_USDT`). */
export function isCoinWayCode(wayCode: string): boolean {
  return wayCode.startsWith(COIN_WAY_CODE_PREFIX) && wayCode.length > COIN_WAY_CODE_PREFIX.length;
}

/** The payment interface (channel) code the mock reports for a way code. */
export function channelOf(wayCode: string): string {
  if (isCoinWayCode(wayCode)) return 'coinpay';
  const prefix = wayCode.split('_')[0];
  return ({ ALI: 'alipay', WX: 'wxpay', YSF: 'ysfpay', UP: 'ysfpay', PP: 'pppay' } as Record<string, string>)[prefix ?? ''] ?? 'mockpay';
}

/** Parses `channelExtra` (a JSON object in a string) and checks the members the way code needs. */
export function readChannelExtra(wayCode: string, channelExtra: string | undefined): Record<string, unknown> {
  let extra: unknown = {};
  if (channelExtra !== undefined) {
    try {
      extra = JSON.parse(channelExtra);
    } catch {
      throw refuse(MESSAGES.channelExtraFormat);
    }
    if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw refuse(MESSAGES.channelExtraFormat);
  }
  const members = extra as Record<string, unknown>;
  const required = isBarcodeWayCode(wayCode) ? 'authCode' : REQUIRED_MEMBERS[wayCode];
  if (required !== undefined && (typeof members[required] !== 'string' || members[required] === '')) {
    throw refuse(required === 'authCode' ? MESSAGES.authCodeMissing : MESSAGES.channelExtraMember(required));
  }
  return members;
}

/** What the order's payer is given. */
export interface PayData {
  readonly payDataType: string;
  readonly payData: string;
}

/**
 * The pay data of a new order.
 *
 * @param depositAddress - for coin ways, the address the payer sends the tokens to
 */
export function payDataFor(wayCode: string, payOrderId: string, extra: Readonly<Record<string, unknown>>, origin: string, depositAddress: string | undefined): PayData {
  if (isBarcodeWayCode(wayCode)) return { payDataType: 'none', payData: '' };
  if (depositAddress !== undefined) return { payDataType: 'codeUrl', payData: depositAddress };
  const wallet = WALLET_TYPES[wayCode];
  if (wallet) return { payDataType: wallet, payData: walletPayData(wayCode, payOrderId) };
  const selectable = SELECTABLE[wayCode];
  let type: string = selectable ?? 'payurl';
  if (selectable && extra.payDataType !== undefined) {
    const requested = String(extra.payDataType);
    type = SELECTABLE_TYPES.find((t) => t.toLowerCase() === requested.toLowerCase()) ?? '';
    if (type === '') throw refuse(MESSAGES.payDataTypeUnsupported(requested));
  }
  const cashier = cashierUrl(origin, payOrderId);
  switch (type) {
    case 'form':
      return { payDataType: 'form', payData: `<form id="pay" method="GET" action="${cashier}"></form><script>document.getElementById('pay').submit()</script>` };
    case 'codeUrl':
      return { payDataType: type, payData: cashier };
    case 'codeImgUrl':
      // An image of the QR code of the cashier URL (src/testing/pages/qr-image.ts serves it).
      return { payDataType: type, payData: `${cashier}/qr.svg` };
    default:
      return { payDataType: 'payurl', payData: cashier };
  }
}

/** The cashier page of an order: what `payurl` and `codeUrl` pay data give, and what the `codeImgUrl` image encodes. */
export function cashierUrl(origin: string, payOrderId: string): string {
  return `${origin}/cashier/${payOrderId}`;
}

function walletPayData(wayCode: string, payOrderId: string): string {
  if (wayCode === 'ALI_APP') return `app_id=mock&biz_content=${payOrderId}`;
  if (wayCode.startsWith('ALI_')) return JSON.stringify({ alipayTradeNo: `MOCK${payOrderId}` });
  if (wayCode.startsWith('WX_')) {
    return JSON.stringify({ appId: 'wx-mock', timeStamp: '0', nonceStr: payOrderId, package: `prepay_id=mock_${payOrderId}`, signType: 'RSA', paySign: 'MOCK' });
  }
  return JSON.stringify({ tn: `MOCK${payOrderId}` });
}
