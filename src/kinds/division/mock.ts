/**
 * The mock's divisions of paid orders, as the reference makes them (shared/spec/division.md sections 2 to 6): exec
 * refused in the reference's order with its texts, the receivers resolved as its loop does (an account listed twice,
 * or by id and inside a listed group, is paid twice), the amounts computed exactly (`mock-amounts.ts`), one
 * batch `D…` of records, the channel's outcome chosen by a test control, and the order's `divisionState` 3 whatever
 * the outcome. Mode 1 orders are divided to their merchant's first auto group 80 s after payment on the simulated
 * clock, as the reference's delayed job does. Nothing is notified: the reference notifies no division.
 *
 * @module
 */
import * as z from 'zod/mini';
import { PayOrderState } from '../payments/enums.js';
import { parseInput } from '../../protocol/schemas/parse.js';
import type { AcceptedRequest } from '../../testing/domain/accepted-request.js';
import type { SimulatedClock } from '../../testing/domain/clock.js';
import { compareDecimal, divisibleAmount, divisionAmounts, parseDecimal, plainText, type Decimal } from './mock-amounts.js';
import { controlText, type DivisionParticipant, type DivisionReceiverBook } from './mock-receivers.js';
import type { MockPayOrder } from '../payments/mock.js';
import type { MockRecordReader } from '../../testing/domain/record-kind.js';
import { refuse } from '../../testing/domain/refusals.js';

/**
 * How long after payment the reference's job divides a mode 1 order: 80 s, on the mock's simulated clock.
 *
 * @example
 * ```ts
 * gateway.payOrder('order-1');                 // divisionMode 1
 * gateway.advanceTime(AUTO_DIVISION_DELAY_MS); // divided to the merchant's auto group
 * ```
 */
export const AUTO_DIVISION_DELAY_MS = 80_000;

/**
 * The reference's refusal texts of a division's exec (division.md section 2), in its order.
 *
 * @example
 * ```ts
 * const again = client.executeDivision({ mchOrderNo: 'order-1001', receivers: [{ receiverId: 800001, divisionProfit: '0.25' }] });
 * await expect(again).rejects.toMatchObject({ msg: DIVISION_EXEC_TEXTS.orderState });
 * ```
 */
export const DIVISION_EXEC_TEXTS = {
  autoMissing: '是否使用系统配置的自动分账组不能为空',
  missingIds: 'mchOrderNo 和 payOrderId不能同时为空',
  notFound: '订单不存在',
  orderState: '当前订单状态不支持分账',
  systemError: '系统异常',
  noIds: '分账用户组： receiverId 和 与receiverGroupId 必填一项',
  /** An element's share below 0, naming the element as the reference does. */
  profitBelow: (receiverId: string, groupId: string) => `分账用户receiverId=[${receiverId}],receiverGroupId=[${groupId}] 分账比例不得小于0%`,
  /** An element's share above 1, naming the element as the reference does. */
  profitAbove: (receiverId: string, groupId: string) => `分账用户receiverId=[${receiverId}],receiverGroupId=[${groupId}] 分账比例不得高于100%`,
  unknownReceiver: '分账[用户]中包含不存在或渠道不可用账号，请更改',
  unknownGroup: '分账[账号组]中包含不存在或不可用组，请更改',
} as const;

/**
 * What the channel answers the coming divisions with ({@link MockGateway.setDivisionOutcome}): `succeeded` (state 1,
 * the default), `failed` (2, with `errCode`/`errMsg`) or `accepted` (3: WeChat's answer, the result comes later).
 *
 * @example
 * ```ts
 * gateway.setDivisionOutcome({ outcome: 'accepted' });
 * ```
 */
export interface DivisionOutcomeInput {
  readonly outcome: DivisionOutcome;
  readonly errCode?: string | undefined;
  readonly errMsg?: string | undefined;
}
/**
 * A division's outcome at the channel: exec's answer state 1, 2 or 3.
 *
 * @example
 * ```ts
 * const outcome: DivisionOutcome = 'accepted';
 * gateway.setDivisionOutcome({ outcome });
 * ```
 */
export type DivisionOutcome = 'succeeded' | 'failed' | 'accepted';

const OUTCOME_STATES = { succeeded: 1, failed: 2, accepted: 3 } as const satisfies Record<DivisionOutcome, number>;

/** Record states (spec section 6). */
export const DivisionRecordState = { Waiting: 0, Succeeded: 1, Failed: 2, Accepted: 3 } as const;

/** Checks a {@link DivisionOutcomeInput}; the control route reads its body with it too. */
export const divisionOutcomeSchema = z.strictObject({
  outcome: z.enum(['succeeded', 'failed', 'accepted'], { error: "must be 'succeeded', 'failed' or 'accepted'" }),
  errCode: controlText(64),
  errMsg: controlText(256),
});

const DEFAULT_FAILURE = { errCode: 'MOCK_DIVISION_FAILED', errMsg: 'division refused by the channel (mock)' };

/**
 * One division of an order: a batch of records, with the exec answer's state.
 *
 * @example
 * ```ts
 * const [batch] = gateway.state().divisionBatches;
 * expect(batch?.state).toBe(1);
 * ```
 */
export interface MockDivisionBatch {
  readonly batchOrderId: string;
  readonly payOrderId: string;
  readonly mchOrderNo: string;
  readonly mchNo: string;
  readonly appId: string;
  readonly ifCode: string;
  /** Divided to the merchant's auto group (`useSysAutoDivisionReceivers` 1, or the mode 1 job). */
  readonly auto: boolean;
  /** What the division shared (`amount - mchFeeAmount - refundAmount - earlier shares`, at least 0), and its cap. */
  readonly divisibleAmount: number;
  readonly capAmount: number;
  readonly currency: string;
  /** The exec answer's state: 1 succeeded, 2 failed, 3 accepted; 0 when the call was interrupted (the `refusedAfterStore` fault). */
  readonly state: number;
  readonly channelBatchOrderId?: string | undefined;
  readonly errCode?: string | undefined;
  readonly errMsg?: string | undefined;
  readonly createdAt: number;
}

/**
 * One receiver's share of a division: its account masked, its share and amount, its state (0 waiting, 1 succeeded,
 * 2 failed, 3 accepted by the channel).
 *
 * @example
 * ```ts
 * const shares = gateway.state().divisionRecords.map((r) => r.calDivisionAmount);
 * ```
 */
export interface MockDivisionRecord {
  readonly recordId: number;
  readonly batchOrderId: string;
  readonly payOrderId: string;
  readonly mchNo: string;
  readonly appId: string;
  readonly receiverId: number;
  readonly receiverGroupId: number;
  readonly account: string;
  readonly divisionProfit: string;
  readonly calDivisionAmount: number;
  readonly currency: string;
  state: number;
  errCode?: string | undefined;
  errMsg?: string | undefined;
  readonly createdAt: number;
}

/** One element of exec's `receivers`, as the reference reads it. */
interface ReceiverElement {
  readonly receiverId?: number | undefined;
  readonly receiverGroupId?: number | undefined;
  readonly share?: Decimal | undefined;
}

// Shared by every mock of the process: two mocks never hand out one batchOrderId.
let batchSequence = 0;

/** The divisions of all merchants. */
export class DivisionDesk {
  readonly #batches: MockDivisionBatch[] = [];
  readonly #records: MockDivisionRecord[] = [];
  // The test control's value: the channel's answer to the coming divisions.
  #outcome: DivisionOutcomeInput = { outcome: 'succeeded' };

  constructor(
    private readonly clock: SimulatedClock,
    /** The orders' desk, built before this one. */
    private readonly orders: MockRecordReader<MockPayOrder>,
    private readonly receivers: DivisionReceiverBook,
    /** The order's refunded sum so far. */
    private readonly refundedOf: (payOrderId: string) => number,
  ) {}

  /** Test control: the channel's answer to the coming divisions; a failure's texts as they will be answered. */
  setOutcome(input: DivisionOutcomeInput): DivisionOutcomeInput {
    const { outcome, errCode = DEFAULT_FAILURE.errCode, errMsg = DEFAULT_FAILURE.errMsg } = parseInput(divisionOutcomeSchema, input, 'Invalid setDivisionOutcome outcome', 'options');
    this.#outcome = outcome === 'failed' ? { outcome, errCode, errMsg } : { outcome };
    return { ...this.#outcome };
  }

  /**
   * executeDivision: the refusals in the reference's order, then the division, all within the call. `interrupted`
   * (the `refusedAfterStore` fault): the records are stored in 0 and the order left in divisionState 2, the channel
   * never asked, as an unexpected error after the reference's compare-and-set leaves it.
   */
  exec({ app, params }: AcceptedRequest, interrupted?: 'created' | 'processing'): Record<string, unknown> {
    const { payOrderId, mchOrderNo, useSysAutoDivisionReceivers, receivers } = params as Record<string, string | number | undefined>;
    // A field rule of the reference (its request class requires it), checked here after the shared checks.
    if (useSysAutoDivisionReceivers === undefined) throw refuse(DIVISION_EXEC_TEXTS.autoMissing);
    if (payOrderId === undefined && mchOrderNo === undefined) throw refuse(DIVISION_EXEC_TEXTS.missingIds);
    const order = this.#orderOf(app, payOrderId === undefined ? { mchOrderNo: String(mchOrderNo) } : { payOrderId: String(payOrderId) });
    if (order.state !== PayOrderState.Succeeded || order.divisionState !== 0 || order.divisionMode !== 2) throw refuse(DIVISION_EXEC_TEXTS.orderState);
    // 1 divides to the auto group; any other value reads receivers (the reference compares with 1 only).
    const auto = String(useSysAutoDivisionReceivers) === '1';
    const elements = auto ? [] : readElements(receivers === undefined ? undefined : String(receivers));
    for (const element of elements) {
      const [id, group] = [String(element.receiverId ?? null), String(element.receiverGroupId ?? null)];
      if (element.receiverId === undefined && element.receiverGroupId === undefined) throw refuse(DIVISION_EXEC_TEXTS.noIds);
      if (element.share && compareDecimal(element.share, 0) < 0) throw refuse(DIVISION_EXEC_TEXTS.profitBelow(id, group));
      if (element.share && compareDecimal(element.share, 1) > 0) throw refuse(DIVISION_EXEC_TEXTS.profitAbove(id, group));
    }
    const participants = this.receivers.participants(order);
    if (elements.some((e) => e.receiverId !== undefined && !participants.some((r) => r.receiverId === e.receiverId))) throw refuse(DIVISION_EXEC_TEXTS.unknownReceiver);
    if (elements.some((e) => e.receiverGroupId !== undefined && this.receivers.group(order.mchNo, e.receiverGroupId) === undefined)) throw refuse(DIVISION_EXEC_TEXTS.unknownGroup);
    const batch = this.#divide(order, auto ? this.#autoShares(order, participants) : resolve(participants, elements), auto, interrupted !== undefined);
    return { state: batch.state, channelBatchOrderId: batch.channelBatchOrderId, errCode: batch.errCode, errMsg: batch.errMsg };
  }

  /** Runs the auto divisions due on the simulated clock: mode 1 orders paid 80 s ago or more, still paid. */
  due(): void {
    const before = this.clock.now() - AUTO_DIVISION_DELAY_MS;
    // The orders waiting for the auto division job (divisionState 1), live: the division moves them on.
    for (const order of this.orders.live().filter((o) => o.divisionState === 1)) {
      // The reference's job divides only a paid order still waiting; else it logs an error and the order stays 1.
      if (order.state === PayOrderState.Succeeded && (order.successTime ?? Number.POSITIVE_INFINITY) <= before) {
        this.#divide(order, this.#autoShares(order, this.receivers.participants(order)), true);
      }
    }
  }

  /** Copies of the batches, oldest first. */
  batches(): MockDivisionBatch[] {
    return this.#batches.map((b) => ({ ...b }));
  }

  /** Copies of the records, oldest first. */
  records(): MockDivisionRecord[] {
    return this.#records.map((r) => ({ ...r }));
  }

  #orderOf(app: AcceptedRequest['app'], ids: { payOrderId: string } | { mchOrderNo: string }): MockPayOrder {
    try {
      return this.orders.find(app, ids);
    } catch {
      throw refuse(DIVISION_EXEC_TEXTS.notFound);
    }
  }

  /** The receivers of the merchant's first auto group, each with its stored share (none without such a group). */
  #autoShares(order: MockPayOrder, participants: readonly DivisionParticipant[]): DivisionParticipant[] {
    const group = this.receivers.autoGroup(order.mchNo);
    return group === undefined ? [] : participants.filter((r) => r.receiverGroupId === group.receiverGroupId);
  }

  /** The division itself: divisionState 2, the records, the channel's outcome, divisionState 3. */
  #divide(order: MockPayOrder, shares: readonly DivisionParticipant[], auto: boolean, interrupted = false): MockDivisionBatch {
    order.divisionState = 2;
    const now = this.clock.now();
    const earlierShares = this.#records.filter((r) => r.payOrderId === order.payOrderId && r.state === DivisionRecordState.Succeeded).reduce((sum, r) => sum + r.calDivisionAmount, 0);
    const divisible = divisibleAmount({ amount: order.amount, mchFeeAmount: order.mchFeeAmount, refundAmount: this.refundedOf(order.payOrderId), earlierShares });
    const { cap, amounts } = divisionAmounts(divisible, shares.map((s) => s.share));
    const batchOrderId = `D${now}${String(++batchSequence).padStart(4, '0')}`;
    const records = shares.map((s, i): MockDivisionRecord => ({
      recordId: this.#records.length + i + 1, batchOrderId, payOrderId: order.payOrderId, mchNo: order.mchNo, appId: order.appId, receiverId: s.receiverId,
      receiverGroupId: s.receiverGroupId, account: s.account, divisionProfit: plainText(s.share), calDivisionAmount: amounts[i] ?? 0, currency: order.currency,
      state: DivisionRecordState.Waiting, createdAt: now,
    }));
    // Nothing to send (no receiver, or only zero amounts): WeChat releases the order to the merchant, Alipay calls nothing; either way 1.
    const sent = records.some((r) => r.calDivisionAmount > 0);
    if (interrupted) return this.#store({ ...batchOf(order, batchOrderId, auto, divisible, cap, now), state: DivisionRecordState.Waiting }, records);
    const { outcome, errCode = DEFAULT_FAILURE.errCode, errMsg = DEFAULT_FAILURE.errMsg } = sent ? this.#outcome : { outcome: 'succeeded' as const };
    const state = OUTCOME_STATES[outcome];
    for (const record of records) {
      record.state = state;
      if (outcome === 'failed') Object.assign(record, { errCode, errMsg });
    }
    const channelBatchOrderId = outcome === 'failed' ? undefined : order.ifCode === 'alipay' ? (sent ? order.channelOrderNo : undefined) : `CD${batchOrderId.slice(1)}`;
    order.divisionState = 3;
    order.divisionLastTime = now;
    return this.#store({ ...batchOf(order, batchOrderId, auto, divisible, cap, now), state, channelBatchOrderId, ...(outcome === 'failed' ? { errCode, errMsg } : {}) }, records);
  }

  #store(batch: MockDivisionBatch, records: readonly MockDivisionRecord[]): MockDivisionBatch {
    this.#batches.push(batch);
    this.#records.push(...records);
    return batch;
  }
}

/** A batch's fields before its outcome. */
function batchOf(order: MockPayOrder, batchOrderId: string, auto: boolean, divisibleAmount: number, capAmount: number, createdAt: number) {
  const { payOrderId, mchOrderNo, mchNo, appId, ifCode, currency } = order;
  return { batchOrderId, payOrderId, mchOrderNo, mchNo, appId, ifCode, auto, divisibleAmount, capAmount, currency, createdAt };
}

/** Each active receiver once per element it matches (by id, or by group), in the order of ids then elements, as the reference's loops. */
function resolve(participants: readonly DivisionParticipant[], elements: readonly ReceiverElement[]): DivisionParticipant[] {
  return participants.flatMap((receiver) =>
    elements
      .filter((e) => e.receiverId === receiver.receiverId || e.receiverGroupId === receiver.receiverGroupId)
      .map((e) => ({ ...receiver, share: e.share ?? receiver.share })),
  );
}

/**
 * exec's `receivers`, a JSON array in a string, read as the reference's `JSON.parseArray` does for strict JSON:
 * ids as numbers or digit strings, `""` and `null` as absent, shares as decimal numbers or strings (their exact
 * text); anything it cannot read is the reference's `系统异常`.
 */
export function readElements(text: string | undefined): ReceiverElement[] {
  if (text === undefined) return [];
  let parsed: unknown;
  try {
    // The source text of each number: a share's decimals are never read through a float.
    parsed = JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => (typeof value === 'number' ? new NumberText(context?.source ?? String(value)) : value));
  } catch {
    throw refuse(DIVISION_EXEC_TEXTS.systemError);
  }
  if (!Array.isArray(parsed)) throw refuse(DIVISION_EXEC_TEXTS.systemError);
  return parsed.map((element: unknown) => {
    if (typeof element !== 'object' || element === null || Array.isArray(element) || element instanceof NumberText) throw refuse(DIVISION_EXEC_TEXTS.systemError);
    const { receiverId, receiverGroupId, divisionProfit } = element as Record<string, unknown>;
    return { receiverId: readId(receiverId), receiverGroupId: readId(receiverGroupId), share: readShare(divisionProfit) };
  });
}

/** A JSON number as its text. */
class NumberText {
  constructor(readonly text: string) {}
}

const absent = (value: unknown) => value === undefined || value === null || value === '';

function readId(value: unknown): number | undefined {
  if (absent(value)) return undefined;
  const digits = value instanceof NumberText ? value.text : typeof value === 'string' ? value.trim() : undefined;
  if (digits === undefined || !/^-?\d{1,15}$/.test(digits)) throw refuse(DIVISION_EXEC_TEXTS.systemError);
  return Number(digits);
}

function readShare(value: unknown): Decimal | undefined {
  if (absent(value)) return undefined;
  const share = value instanceof NumberText ? parseDecimal(value.text) : typeof value === 'string' ? parseDecimal(value.trim()) : undefined;
  if (share === undefined) throw refuse(DIVISION_EXEC_TEXTS.systemError);
  return share;
}
