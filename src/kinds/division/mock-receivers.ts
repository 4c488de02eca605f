/**
 * The mock's division receiver groups and receivers, as the reference keeps them (shared/spec/division.md sections 0
 * and 1): groups are made by a test control, as the merchant portal makes them (there is no API; ids from 100001);
 * receivers are bound over the API (ids from 800001), refused in the reference's order with its texts, stored with
 * state 1 when the channel binds them, and **never checked for duplicates**: a second bind of one account stores a
 * second receiver, as the reference does. A test may make the channel refuse the coming binds: then the answer is a
 * success envelope with `bindState` 0 and nothing is stored.
 *
 * @module
 */
import * as z from 'zod/mini';
import { maskPersonal } from '../../protocol/schemas/free-text.js';
import { parseInput } from '../../protocol/schemas/parse.js';
import type { AcceptedRequest } from '../../testing/domain/accepted-request.js';
import type { SimulatedClock } from '../../testing/domain/clock.js';
import { compareDecimal, parseDecimal, plainText, roundDecimal, type Decimal } from './mock-amounts.js';
import { DecimalLiteral } from '../../testing/domain/json-text.js';
import { CONFIGURED_IF_CODES } from '../../testing/domain/merchants.js';
import { refuse } from '../../testing/domain/refusals.js';

/**
 * The reference's refusal texts of a receiver bind (division.md section 1), in its order.
 *
 * @example
 * ```ts
 * const refused = client.bindDivisionReceiver({ ifCode: 'wxpay', receiverGroupId: 999, accType: 0, accNo: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o', relationType: 'PARTNER', divisionProfit: '0.1' });
 * await expect(refused).rejects.toMatchObject({ msg: DIVISION_BIND_TEXTS.groupNotFound });
 * ```
 */
export const DIVISION_BIND_TEXTS = {
  accType: '分账接收账号类型设置有误',
  notConfigured: '商户应用的支付配置不存在或已关闭',
  groupNotFound: '商户分账账号组不存在，请检查或进入商户平台进行创建操作',
  systemError: '系统异常',
  profit: '账号分账比例有误, 配置值为[0.0001~1.0000]',
  noService: '系统不支持该分账接口',
} as const;

/** The interfaces that have a division service (the open-source reference's `<ifCode>DivisionService` beans). */
export const DIVISION_IF_CODES: readonly string[] = ['wxpay', 'alipay'];

/** The reference's names of the known relation types; any other type needs the merchant's `relationTypeName`. */
const RELATION_NAMES: Readonly<Record<string, string>> = {
  SERVICE_PROVIDER: '服务商', STORE: '门店', STAFF: '员工', STORE_OWNER: '店主', PARTNER: '合作伙伴',
  HEADQUARTER: '总部', BRAND: '品牌方', DISTRIBUTOR: '分销商', USER: '用户', SUPPLIER: '供应商',
};

/** The columns a bound receiver is stored in (`t_mch_division_receiver`): too long, the insert fails (`系统异常`). */
const COLUMN_LENGTHS = { accNo: 50, accName: 30, relationTypeName: 30, receiverAlias: 64 } as const;

/**
 * A receiver group of a merchant, made by {@link MockGateway.createDivisionGroup} as the merchant portal makes it.
 *
 * @example
 * ```ts
 * const group: MockDivisionGroup = gateway.createDivisionGroup({ name: 'Partners', auto: true });
 * expect(group.receiverGroupId).toBe(100001);
 * ```
 */
export interface MockDivisionGroup {
  readonly receiverGroupId: number;
  readonly receiverGroupName: string;
  readonly mchNo: string;
  /** 1: the auto division group (mode 1 orders are divided to the first such group of their merchant). */
  readonly autoDivisionFlag: 0 | 1;
  readonly createdAt: number;
}

/**
 * A bound receiver as the mock shows it: its account and holder's name masked (personal data), its share as the
 * decimal text the merchant sent.
 *
 * @example
 * ```ts
 * const [receiver] = gateway.state().divisionReceivers;
 * expect(receiver?.account).toBe('***5678');
 * ```
 */
export interface MockDivisionReceiver {
  readonly receiverId: number;
  /** The merchant's alias; the account masked when none was given (the reference defaults it to `accNo`). */
  readonly receiverAlias: string;
  readonly receiverGroupId: number;
  readonly mchNo: string;
  readonly appId: string;
  readonly ifCode: string;
  readonly accType: number;
  /** `accNo` masked: its last 4 characters of 8 or more. */
  readonly account: string;
  /** `accName` masked, when given. */
  readonly accountName?: string | undefined;
  readonly relationType: string;
  readonly relationTypeName: string;
  readonly channelExtInfo?: string | undefined;
  /** The receiver's default share, e.g. `0.30`. */
  readonly divisionProfit: string;
  /** 1 active (takes part in divisions); 0 paused (the portal's). */
  readonly state: number;
  readonly bindSuccessTime: number;
}

/**
 * What the channel answers the coming binds with ({@link MockGateway.refuseReceiverBinds}): it refuses the next
 * `times` (default 1) with `errCode`/`errMsg`.
 *
 * @example
 * ```ts
 * gateway.refuseReceiverBinds({ times: 1, errCode: 'PARAM_ERROR', errMsg: 'name mismatch' });
 * ```
 */
export interface ReceiverBindRefusal {
  readonly times?: number | undefined;
  readonly errCode?: string | undefined;
  readonly errMsg?: string | undefined;
}

/**
 * A group to make ({@link MockGateway.createDivisionGroup}): of `mchNo` (default: the first merchant configured),
 * named `name`, flagged as the auto division group when `auto`.
 *
 * @example
 * ```ts
 * gateway.createDivisionGroup({ mchNo: 'M1700000001', name: 'Stores', auto: false });
 * ```
 */
export interface DivisionGroupInput {
  readonly mchNo?: string | undefined;
  readonly name?: string | undefined;
  readonly auto?: boolean | undefined;
}

/** An optional control text of 1 to `max` characters. */
export const controlText = (max: number) => z.optional(z.string({ error: 'must be a string' }).check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(max, { error: `must be at most ${max} characters` })));

/** Checks a {@link DivisionGroupInput}; the control route reads its body with it too. */
export const divisionGroupInputSchema = z.strictObject({ mchNo: controlText(64), name: controlText(64), auto: z.optional(z.boolean({ error: 'must be true or false' })) });

/** Checks a {@link ReceiverBindRefusal}; the control route reads its body with it too. */
export const receiverBindRefusalSchema = z.strictObject({
  times: z.optional(z.int({ error: 'must be a whole number' }).check(z.minimum(1, { error: 'must be at least 1' }), z.maximum(1000, { error: 'must be at most 1000' }))),
  errCode: controlText(64),
  errMsg: controlText(256),
});

const DEFAULT_REFUSAL = { errCode: 'MOCK_BIND_REFUSED', errMsg: 'receiver refused by the channel (mock)' };
const FIRST_GROUP_ID = 100001;
const FIRST_RECEIVER_ID = 800001;

/** A receiver as stored: the view plus what is never shown (the account in full, the share as a number). */
interface StoredReceiver extends MockDivisionReceiver {
  readonly accNo: string;
  readonly accName?: string | undefined;
  readonly share: Decimal;
}

/** A receiver that takes part in a division: its id, group, masked account and stored share. */
export interface DivisionParticipant {
  readonly receiverId: number;
  readonly receiverGroupId: number;
  readonly account: string;
  readonly share: Decimal;
}

/** The groups and receivers of all merchants. */
export class DivisionReceiverBook {
  readonly #groups: MockDivisionGroup[] = [];
  readonly #receivers: StoredReceiver[] = [];
  // Test controls' own values: the channel's coming refusals of binds.
  readonly #refusals: { errCode: string; errMsg: string }[] = [];

  constructor(
    private readonly clock: SimulatedClock,
    /** The merchants configured, in order: a group's default one is the first. */
    private readonly mchNos: () => readonly string[],
  ) {}

  /** Test control: a group, as the merchant portal makes it. */
  createGroup(input: DivisionGroupInput = {}): MockDivisionGroup {
    const { mchNo = this.mchNos()[0] ?? '', name, auto } = parseInput(divisionGroupInputSchema, input, 'Invalid createDivisionGroup group', 'options');
    if (!this.mchNos().includes(mchNo)) throw new Error(`createDivisionGroup: no merchant ${JSON.stringify(mchNo)}; the mock has ${this.mchNos().join(', ')}`);
    const receiverGroupId = FIRST_GROUP_ID + this.#groups.length;
    const group: MockDivisionGroup = { receiverGroupId, receiverGroupName: name ?? `group ${receiverGroupId}`, mchNo, autoDivisionFlag: auto ? 1 : 0, createdAt: this.clock.now() };
    this.#groups.push(group);
    return { ...group };
  }

  /** Test control: the channel refuses the next `times` binds. */
  refuseBinds(refusal: ReceiverBindRefusal = {}): { refusedBinds: number } {
    const { times = 1, errCode = DEFAULT_REFUSAL.errCode, errMsg = DEFAULT_REFUSAL.errMsg } = parseInput(receiverBindRefusalSchema, refusal, 'Invalid refuseReceiverBinds refusal', 'options');
    for (let i = 0; i < times; i++) this.#refusals.push({ errCode, errMsg });
    return { refusedBinds: this.#refusals.length };
  }

  /**
   * bindDivisionReceiver: the refusals in the reference's order, then the channel, then the store. `interrupted`
   * (the `refusedAfterStore` fault): the channel bound it and it is stored, then the answer fails.
   */
  bind({ app, params }: AcceptedRequest, interrupted?: 'created' | 'processing'): Record<string, unknown> {
    const p = params as Record<string, string | undefined> & { receiverGroupId: number; accType: number };
    const ifCode = String(p.ifCode);
    if (p.accType !== 0 && p.accType !== 1) throw refuse(DIVISION_BIND_TEXTS.accType);
    if (!CONFIGURED_IF_CODES.includes(ifCode)) throw refuse(DIVISION_BIND_TEXTS.notConfigured);
    if (this.group(app.mchNo, p.receiverGroupId) === undefined) throw refuse(DIVISION_BIND_TEXTS.groupNotFound);
    // new BigDecimal(text): a NumberFormatException is caught generically. The upper bound is dead code in the reference.
    const share = parseDecimal(String(p.divisionProfit));
    if (share === undefined) throw refuse(DIVISION_BIND_TEXTS.systemError);
    if (compareDecimal(share, 0) <= 0) throw refuse(DIVISION_BIND_TEXTS.profit);
    if (!DIVISION_IF_CODES.includes(ifCode)) throw refuse(DIVISION_BIND_TEXTS.noService);

    const accNo = String(p.accNo);
    const relationType = String(p.relationType);
    const answered = {
      receiverAlias: p.receiverAlias ?? accNo, receiverGroupId: p.receiverGroupId, mchNo: app.mchNo, appId: app.appId, ifCode, accType: p.accType, accNo,
      accName: p.accName, relationType, relationTypeName: RELATION_NAMES[relationType] ?? p.relationTypeName, channelExtInfo: p.channelExtInfo,
      divisionProfit: new DecimalLiteral(plainText(share)),
    };
    const refusal = interrupted === undefined ? this.#refusals.shift() : undefined;
    if (refusal) return { ...answered, bindState: 0, ...refusal };
    // The channel bound it; the insert fails on a value its column cannot hold (MySQL strict mode), after the channel.
    const { relationTypeName } = answered;
    const tooLong = (Object.keys(COLUMN_LENGTHS) as (keyof typeof COLUMN_LENGTHS)[]).some((name) => (answered[name]?.length ?? 0) > COLUMN_LENGTHS[name]);
    if (tooLong || relationTypeName === undefined) throw refuse(DIVISION_BIND_TEXTS.systemError);
    const receiver: StoredReceiver = {
      ...answered, relationTypeName, receiverId: FIRST_RECEIVER_ID + this.#receivers.length, account: maskPersonal(accNo),
      // The alias defaults to the account itself: then it is shown masked as the account is.
      receiverAlias: p.receiverAlias ?? maskPersonal(accNo),
      accountName: p.accName === undefined ? undefined : maskPersonal(p.accName), divisionProfit: plainText(share),
      // DECIMAL(20,6): the stored share, which a division reads.
      share: roundDecimal(share, 6), state: 1, bindSuccessTime: this.clock.now(),
    };
    this.#receivers.push(receiver);
    return { ...answered, receiverId: receiver.receiverId, bindSuccessTime: receiver.bindSuccessTime, bindState: 1 };
  }

  /** The merchant's group of this id. */
  group(mchNo: string, receiverGroupId: number): MockDivisionGroup | undefined {
    return this.#groups.find((g) => g.receiverGroupId === receiverGroupId && g.mchNo === mchNo);
  }

  /** The merchant's first auto division group. */
  autoGroup(mchNo: string): MockDivisionGroup | undefined {
    return this.#groups.find((g) => g.mchNo === mchNo && g.autoDivisionFlag === 1);
  }

  /** The receivers that may take part in a division of an order: its merchant, application and channel, active; by id. */
  participants(order: { readonly mchNo: string; readonly appId: string; readonly ifCode: string }): DivisionParticipant[] {
    return this.#receivers
      .filter((r) => r.mchNo === order.mchNo && r.appId === order.appId && r.ifCode === order.ifCode && r.state === 1)
      .map(({ receiverId, receiverGroupId, account, share }) => ({ receiverId, receiverGroupId, account, share }));
  }

  /** Copies of the groups, oldest first. */
  groups(): MockDivisionGroup[] {
    return this.#groups.map((g) => ({ ...g }));
  }

  /** The receivers as shown (accounts masked), oldest first. */
  receivers(): MockDivisionReceiver[] {
    return this.#receivers.map(({ accNo: _accNo, accName: _accName, share: _share, ...shown }) => shown);
  }
}
