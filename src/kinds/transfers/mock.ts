/**
 * The mock's transfers, as the reference gateway makes them (shared/spec/transfers.md): refused in the reference's
 * order with its texts (a repeated `mchOrderNo` first, whatever else the request says); stored in 0, handed to the
 * channel (1), then by default paid out at once (2); a test may hold them in 1 or fail them (3), per transfer or
 * for all. A system error after the transfer is stored (the `refusedAfterStore` fault) leaves it 0. A transfer with
 * a `notifyUrl` is notified once, when it becomes 2 or 3. The reference never closes one: no expiry.
 *
 * @module
 */
import { notification, TRANSFER_ENTRY_TYPES, TransferOrderState, type Transfer } from './declaration.js';
import type { MockDecision } from '../../testing/domain/record-desk.js';
import { declaredBy, defineMockRecordKind, type MockCreateCall } from '../../testing/domain/record-kind.js';
import { CONFIGURED_IF_CODES } from '../../testing/domain/merchants.js';
import { MESSAGES, urlProtocolRefusal } from '../../testing/domain/refusals.js';
import { maskPersonal } from '../../protocol/schemas/free-text.js';

// The query's fields (Transfer's own keys include an index signature).
type TransferField =
  | 'transferId' | 'mchNo' | 'appId' | 'mchOrderNo' | 'ifCode' | 'entryType' | 'amount' | 'currency' | 'accountNo' | 'accountName' | 'bankName'
  | 'transferDesc' | 'state' | 'channelExtra' | 'channelOrderNo' | 'channelResData' | 'errCode' | 'errMsg' | 'extParam' | 'successTime' | 'createdAt';

/**
 * A transfer as the mock gateway holds it: the query fields of a `Transfers.Transfer` plus where it is notified.
 *
 * @example
 * ```ts
 * const transfer = gateway.state().transfers[0];
 * expect(transfer?.state).toBe(Transfers.State.Succeeded);
 * ```
 */
export interface MockTransfer extends Pick<Transfer, TransferField> {
  /** The payee's account as the dashboard shows it: its last 4 characters (personal data). */
  readonly account: string;
  notifyUrl?: string | undefined;
  clientIp?: string | undefined;
}

/**
 * The mock gateway's transfer methods, made from its declaration (`transferKind`; `kind-methods.ts` derives them; the compiler
 * checks these signatures against that derivation): their documentation.
 *
 * @example
 * ```ts
 * gateway.setTransferMode('hold');
 * gateway.settleTransfer('payout-1001', { to: 'succeed' });
 * ```
 */
export interface MockTransferMethods {
  /**
   * A copy of a transfer, by `transferId` or `mchOrderNo`; `undefined` when there is none.
   *
   * @example
   * ```ts
   * expect(gateway.transfer('payout-1001')?.state).toBe(Transfers.State.Succeeded);
   * ```
   */
  transfer(ref: string): MockTransfer | undefined;
  /**
   * Copies of all transfers, oldest first.
   *
   * @example
   * ```ts
   * expect(gateway.transfers()).toHaveLength(1);
   * ```
   */
  transfers(): MockTransfer[];
  /**
   * How the channel treats the coming transfers: `succeed` at once (the default: state 2, paid out, notified), `hold`
   * in 1 (transferring) until `settleTransfer` decides them, or `fail` at once (3, notified). With `target`, only the
   * transfer of that `mchOrderNo`: a transfer's own mode wins.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `mode` or `target` is wrong
   * @example
   * ```ts
   * gateway.setTransferMode('hold');
   * gateway.setTransferMode('fail', { mchOrderNo: 'payout-7' }); // only this one fails
   * ```
   */
  setTransferMode(mode: 'succeed' | 'hold' | 'fail', target?: { readonly mchOrderNo: string }): void;
  /**
   * Decides a held transfer (state 0 or 1): `succeed` (2, the payee is paid) or `fail` (3); both are notified to the
   * transfer's `notifyUrl`. The reference never closes a transfer.
   *
   * @throws an `Error` when the transfer is unknown or already final
   * @example
   * ```ts
   * gateway.settleTransfer('payout-1001', { to: 'fail', errCode: 'ACCOUNT_FROZEN', errMsg: 'payee account frozen' });
   * ```
   */
  settleTransfer(ref: string, decision: MockDecision<'succeed' | 'fail'>): MockTransfer;
}

/** The reference's transfer texts (TransferOrderController, spec section 1), in its order. */
const TEXTS = {
  duplicate: (mchOrderNo: string) => `商户订单[${mchOrderNo}]已存在`,
  notConfigured: '应用未开通此接口配置!',
  noService: '无此转账通道接口',
  entryType: '该接口不支持该入账方式',
  notFound: '订单不存在',
} as const;


type Call = MockCreateCall<MockTransfer, object>;
const paramsOf = (call: Call) => call.request.params as Record<string, string | undefined> & { amount: number };
const takes = (ifCode: string): readonly string[] | undefined => (TRANSFER_ENTRY_TYPES as Readonly<Record<string, readonly string[]>>)[ifCode];

/** The transfer kind of the mock, run by the generic desk. */
export const transferKind = defineMockRecordKind<MockTransfer, object>()({
  // Its name, plural, operations, id, key and states are its declaration's.
  ...declaredBy(notification, { create: 'transferOrder', held: TransferOrderState.Transferring }),
  label: 'Transfer',
  notFound: TEXTS.notFound,
  // The reference's order (spec section 1): the duplicate before anything else of the transfer.
  refusals: [
    (call) => {
      const mchOrderNo = String(paramsOf(call).mchOrderNo);
      return call.taken(mchOrderNo) ? TEXTS.duplicate(mchOrderNo) : undefined;
    },
    (call) => urlProtocolRefusal(paramsOf(call).notifyUrl, MESSAGES.notifyUrlProtocol),
    (call) => (CONFIGURED_IF_CODES.includes(String(paramsOf(call).ifCode)) ? undefined : TEXTS.notConfigured),
    (call) => (takes(String(paramsOf(call).ifCode)) ? undefined : TEXTS.noService),
    (call) => (takes(String(paramsOf(call).ifCode))?.includes(String(paramsOf(call).entryType)) ? undefined : TEXTS.entryType),
  ],
  create(call, sequence, interrupted) {
    const { request: { app, blank }, now } = call;
    const p = paramsOf(call);
    const transferId = `T${sequence}`;
    return {
      transferId, mchNo: app.mchNo, appId: app.appId, mchOrderNo: String(p.mchOrderNo), ifCode: String(p.ifCode), entryType: String(p.entryType),
      amount: p.amount, currency: String(p.currency), accountNo: String(p.accountNo), account: maskPersonal(p.accountNo), accountName: p.accountName, bankName: p.bankName,
      transferDesc: String(p.transferDesc), channelExtra: p.channelExtra, extParam: p.extParam ?? (blank.has('extParam') ? '' : undefined),
      // Stored in 0, then the channel: 1 while it transfers; a system error leaves it 0.
      state: interrupted === 'created' ? TransferOrderState.Created : TransferOrderState.Transferring,
      channelOrderNo: interrupted === 'created' ? undefined : `CT${transferId.slice(1)}`,
      createdAt: now, notifyUrl: p.notifyUrl, clientIp: p.clientIp,
    };
  },
  modes: { succeed: 'succeed', hold: undefined, fail: 'fail' },
  decisions: {
    succeed: { to: TransferOrderState.Succeeded, stamp: 'successTime', button: 'primary', past: 'paid out', does: 'a held transfer succeeds (state 2: the payee is paid); it is notified' },
    fail: { to: TransferOrderState.Failed, failure: { errCode: 'MOCK_TRANSFER_FAILED', errMsg: 'transfer refused by the channel (mock)' }, button: 'danger', past: 'failed', does: 'a held transfer fails (state 3; --err-code, --err-msg set errCode, errMsg); it is notified' },
  },
  world: () => ({}),
  columns: [
    { title: 'mchOrderNo', field: 'mchOrderNo', as: 'code' },
    { title: 'transferId', field: 'transferId', as: 'code' },
    { title: 'Entry', field: 'entryType', as: 'code' },
    { title: 'Amount', field: 'amount', as: 'amount', currency: 'currency' },
    // The payee's account is personal data: its last 4 characters only.
    { title: 'Account', field: 'account', as: 'code' },
    { title: 'State', field: 'state', as: 'state' },
    { title: 'Created', field: 'createdAt', as: 'time' },
  ],
  settleDoes: "decides a held transfer: 'succeed' (2, paid out) or 'fail' (3); both are notified",
  modeDoes: "how the coming transfers go: 'succeed' at once (the default), 'hold' in 1 (transferring) until settled, or 'fail' at once",
});
