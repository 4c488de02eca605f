/**
 * Division (分账, profit sharing; `shared/spec/division.md`): binding a receiver into a receiver group, and dividing a
 * paid order among receivers. The states, the zod schemas of `bindDivisionReceiver` and `executeDivision`, and the
 * public types derived from them. `accNo` and `accName` are the receiver's personal data ({@link personalData}).
 * Shares (`divisionProfit`) are decimal strings, checked and summed exactly (./share.ts).
 *
 * @module
 */
import * as z from 'zod/mini';
import { divisionShare, SHARE_SCALE, shareMillionths } from './share.js';
import { stateNamesOf } from '../../protocol/schemas/enums.js';
import { decimalText, named, requiredText, safeInteger, wireInteger, withInput } from '../../protocol/schemas/fields.js';
import { freeText, personalData, type NotUniquelySigned } from '../../protocol/schemas/free-text.js';
import type { KnownKeys } from '../../protocol/schemas/keys.js';
import { lazySchema } from '../../protocol/schemas/lazy.js';
import { notSent } from '../../protocol/schemas/not-sent.js';
import type { ExactlyOne } from '../../protocol/schemas/one-of.js';

/**
 * The outcome of a bind (`bindState` of a {@link Divisions.BindResult}): the gateway answers success either way.
 * `Refused` means the channel refused the account and **nothing was stored**: it is the one bind outcome after which
 * binding again is safe.
 *
 * @example
 * ```ts
 * import { Divisions } from 'payment-gateway-sdk';
 *
 * const bound = await client.bindDivisionReceiver({
 *   ifCode: 'wxpay', receiverGroupId: 100001, accType: 0, accNo: 'o8xYz0123456789', relationType: 'STORE', divisionProfit: '0.2',
 * });
 * if (bound.bindState === Divisions.BindState.Bound) await log.info('receiver bound', bound.receiverId);
 * else await log.warn(`not bound, nothing stored (safe to correct and bind again): ${bound.errMsg ?? bound.errCode ?? ''}`);
 * ```
 */
export const DivisionBindState = {
  /** 0: the channel refused the account; nothing was stored (see `errCode`/`errMsg`). Safe to bind again. */
  Refused: 0,
  /** 1: bound at the channel and stored as a new receiver (`receiverId`). Never bind the same account again. */
  Bound: 1,
} as const;

/** A bind outcome code, 0 or 1. */
export type DivisionBindState = (typeof DivisionBindState)[keyof typeof DivisionBindState];

/**
 * The outcome of a division (`state` of a {@link Divisions.ExecResult}). `Accepted` is neither success nor failure:
 * the channel took the batch and the gateway settles it later, out of sight of the API (the merchant portal shows
 * the records' end). WeChat answers `Accepted` for every division with receivers.
 *
 * @example
 * ```ts
 * import { Divisions } from 'payment-gateway-sdk';
 *
 * const division = await client.executeDivision({ mchOrderNo: 'order-1001', receivers: [{ receiverId: 800001, divisionProfit: '0.3' }] });
 * if (division.state === Divisions.ExecState.Failed) await alertOnCall(`division of order-1001 failed: ${division.errMsg ?? ''}`);
 * else await log.info('order-1001 divided', Divisions.execStateName(division.state)); // 'Succeeded' or 'Accepted'
 * ```
 */
export const DivisionExecState = {
  /** 1: the channel divided the order (records succeeded); what was not shared is released to the merchant. */
  Succeeded: 1,
  /** 2: the channel refused or the call to it failed (see `errCode`/`errMsg`); only the merchant portal can resend it. */
  Failed: 2,
  /** 3: accepted by the channel, result not known yet: the gateway settles it later; the merchant portal shows the end. */
  Accepted: 3,
} as const;

/** A division outcome code, 1 to 3. */
export type DivisionExecState = (typeof DivisionExecState)[keyof typeof DivisionExecState];

const execStateNames = stateNamesOf(DivisionExecState);

/**
 * The name of a division outcome, for logs and messages.
 *
 * @example
 * ```ts
 * import { Divisions } from 'payment-gateway-sdk';
 *
 * Divisions.execStateName(3); // 'Accepted'
 * ```
 */
export function divisionExecStateName(state: DivisionExecState): keyof typeof DivisionExecState {
  return execStateNames(state);
}

/**
 * The kind of a receiver's account (`accType`): a person (WeChat: an openid) or a merchant (WeChat: a merchant id).
 *
 * @example
 * ```ts
 * import { Divisions } from 'payment-gateway-sdk';
 *
 * const accType = Divisions.AccountType.Person; // 0
 * ```
 */
export const DivisionAccountType = {
  /** 0: a person (WeChat `PERSONAL_OPENID`; Alipay a user id or login). */
  Person: 0,
  /** 1: a merchant (WeChat `MERCHANT_ID`). */
  Merchant: 1,
} as const;

/** An account type code, 0 or 1. */
export type DivisionAccountType = (typeof DivisionAccountType)[keyof typeof DivisionAccountType];

/**
 * The receiver's relation to the merchant (`relationType`): the ten the gateway names itself, or `CUSTOM` with your
 * own `relationTypeName`.
 *
 * @example
 * ```ts
 * import { Divisions } from 'payment-gateway-sdk';
 *
 * Divisions.RELATION_TYPES.includes('PARTNER'); // true
 * ```
 */
export const DIVISION_RELATION_TYPES = ['SERVICE_PROVIDER', 'STORE', 'STAFF', 'STORE_OWNER', 'PARTNER', 'HEADQUARTER', 'BRAND', 'DISTRIBUTOR', 'USER', 'SUPPLIER', 'CUSTOM'] as const;

/** A relation type: one of {@link DIVISION_RELATION_TYPES}. */
export type DivisionRelationType = (typeof DIVISION_RELATION_TYPES)[number];

const accTypeSchema = lazySchema(() => z.enum(DivisionAccountType, { error: 'must be 0 (a person) or 1 (a merchant)' }));
const relationTypeSchema = lazySchema(() => z.enum(DIVISION_RELATION_TYPES, { error: `must be one of ${DIVISION_RELATION_TYPES.join(', ')}` }));

/** A gateway id of a receiver or a receiver group: a whole number (receivers from 800001, groups from 100001). */
const divisionId = () => safeInteger(1);

/**
 * Text the gateway stores in a column of `max` characters: a longer value fails its database **after** the channel
 * bound the account, which answers a system error while the account is bound; so it is refused before sending.
 */
const storedText = (max: number) => requiredText().check(z.refine((value) => [...value].length <= max, { error: `must be at most ${max} characters (the gateway's column; a longer value is bound at the channel, then fails to be stored)` }));

const bindParamsObject = () =>
  z.strictObject({
    /** The channel interface: `wxpay` or `alipay` (the reference's two division channels), configured for this application. */
    ifCode: requiredText(),
    /** The receiver group to bind into: one of yours, created in the merchant portal (there is no API for groups). */
    receiverGroupId: divisionId(),
    /** 0 a person, 1 a merchant: see {@link DivisionAccountType}. */
    accType: accTypeSchema(),
    /** The account at the channel: a WeChat openid or merchant id, an Alipay user id (`2088…`) or login (personal data: never logged). At most 50 characters. */
    accNo: personalData(storedText(50)),
    /** The account holder's name: WeChat checks it when given, Alipay requires it (personal data). At most 30 characters. */
    accName: z.optional(personalData(freeText(storedText(30)))),
    /** The receiver's relation to you: see {@link DIVISION_RELATION_TYPES}; `CUSTOM` needs `relationTypeName`. */
    relationType: relationTypeSchema(),
    /** The relation's name, for `CUSTOM` only (the gateway names the ten known types itself). At most 30 characters. */
    relationTypeName: z.optional(freeText(storedText(30))),
    /** A name for the receiver in the merchant portal (the gateway defaults it to `accNo`; personal data). At most 64 characters. */
    receiverAlias: z.optional(personalData(freeText(storedText(64)))),
    /** Channel-specific text, stored as given. */
    channelExtInfo: z.optional(freeText(requiredText())),
    /** The receiver's default share of an order's divisible amount, a decimal string: `"0.3"` is 30 %; above 0, at most 1, at most 6 decimals. */
    divisionProfit: divisionShare(),
  });

/** The fields of {@link Divisions.BindParams} before the rule "a name for `CUSTOM`, and only for it". */
type BindFields = z.input<ReturnType<typeof bindParamsObject>>;

/** Checks {@link Divisions.BindParams}: `CUSTOM` with a name, a known type without one (nothing sent otherwise). */
export const divisionReceiverBindParamsSchema = lazySchema(() =>
  withInput<DivisionReceiverBindParams>()(
    bindParamsObject().check(
      z.refine((params) => (params.relationType === 'CUSTOM') === (params.relationTypeName !== undefined), {
        path: ['relationTypeName'],
        error: (issue) =>
          (issue.input as BindFields).relationType === 'CUSTOM'
            ? 'is required with relationType CUSTOM (the gateway stores it NOT NULL: without it the account is bound at the channel, then fails to be stored)'
            : 'is for relationType CUSTOM only: the gateway names the ten known types itself and would ignore it',
      }),
    ),
  ),
);

/**
 * Parameters of {@link GatewayClient.bindDivisionReceiver}: the channel, the group, the account and its default share.
 * `relationType: 'CUSTOM'` takes a `relationTypeName`; the ten known types take none.
 *
 * @example
 * ```ts
 * import { Divisions } from 'payment-gateway-sdk';
 *
 * const receiver: Divisions.BindParams = {
 *   ifCode: 'wxpay', receiverGroupId: 100001, accType: Divisions.AccountType.Person, accNo: 'o8xYz0123456789',
 *   accName: 'Li Lei', relationType: 'PARTNER', divisionProfit: '0.1',
 * };
 * ```
 */
export type DivisionReceiverBindParams = Omit<BindFields, 'relationType' | 'relationTypeName'> &
  (
    | { readonly relationType: Exclude<DivisionRelationType, 'CUSTOM'>; readonly relationTypeName?: never }
    | { readonly relationType: 'CUSTOM'; readonly relationTypeName: string }
  );

const bindResultObject = () =>
  z.looseObject({
    /** The new receiver's id (from 800001), when bound: name it in `executeDivision`. Absent when the channel refused. */
    receiverId: z.optional(wireInteger()),
    /** The receiver's name in the merchant portal (`accNo` unless you gave one: personal data). */
    receiverAlias: personalData(freeText(z.string())),
    /** The group it was bound into, as sent. */
    receiverGroupId: wireInteger(),
    /** Merchant number. */
    mchNo: z.string(),
    /** Merchant application id. */
    appId: z.string(),
    /** The channel interface, as sent. */
    ifCode: z.string(),
    /** The account type, as sent. */
    accType: accTypeSchema(),
    /** The account, as sent (personal data). */
    accNo: personalData(z.string()),
    /** The account holder's name, as sent (personal data). */
    accName: z.optional(personalData(freeText(z.string()))),
    /** The relation type, as sent. */
    relationType: relationTypeSchema(),
    /** The relation's name: yours for `CUSTOM`, the gateway's (Chinese) for a known type. */
    relationTypeName: freeText(z.string()),
    /** Channel-specific text, as sent. */
    channelExtInfo: z.optional(freeText(z.string())),
    /** The default share as a decimal string, exactly as sent (`"0.10"` stays `"0.10"`). */
    divisionProfit: decimalText(),
    /** When the channel bound it, milliseconds since the epoch (bound only). */
    bindSuccessTime: z.optional(wireInteger()),
    /** 1 bound and stored, 0 refused by the channel and not stored: see {@link DivisionBindState}. */
    bindState: z.enum(DivisionBindState, { error: 'must be a bind state 0 or 1' }),
    /** The channel's error code when it refused. */
    errCode: z.optional(z.string()),
    /** The channel's error description when it refused. */
    errMsg: z.optional(freeText(z.string())),
  });

/** The answer's fields, as received. */
type BindAnswer = z.output<ReturnType<typeof bindResultObject>>;
/** The answer's declared fields but the two a bind's outcome decides (an index signature would swallow them in an `Omit`). */
type BindAnswerFields = Pick<BindAnswer, Exclude<KnownKeys<BindAnswer>, 'receiverId' | 'bindState'>>;

/** Checks a bind answer: a bound receiver has its id, a refused one none (either contradiction is the gateway's error). */
export const divisionReceiverBindResultSchema = lazySchema(() =>
  named<z.input<ReturnType<typeof bindResultObject>>, DivisionReceiverBindResult>()(
    bindResultObject().check(
      z.refine((answer) => (answer.bindState === DivisionBindState.Bound) === (answer.receiverId !== undefined), {
        path: ['receiverId'],
        error: (issue) => ((issue.input as BindAnswer).bindState === DivisionBindState.Bound ? 'is missing although bindState is 1 (bound)' : 'is given although bindState is 0 (the channel refused: nothing stored)'),
      }),
    ),
  ),
);

/**
 * A receiver bound and stored: keep its `receiverId` (there is no API to list receivers), and never bind the same
 * account again: a second bind stores a second receiver, which a division by group pays twice.
 *
 * @example
 * ```ts
 * import { Divisions } from 'payment-gateway-sdk';
 *
 * const kept = (r: Divisions.BoundReceiver) => ({ receiverId: r.receiverId, group: r.receiverGroupId, share: r.divisionProfit });
 * ```
 */
export interface DivisionReceiverBound extends BindAnswerFields, NotUniquelySigned {
  /** 1: bound and stored. */
  readonly bindState: typeof DivisionBindState.Bound;
  /** The new receiver's id (from 800001). */
  readonly receiverId: number;
}

/**
 * A bind the channel refused: nothing was stored, so correcting the account (or the channel's configuration) and
 * binding again is safe. `errCode` and `errMsg` are the channel's.
 *
 * @example
 * ```ts
 * import type { Divisions } from 'payment-gateway-sdk';
 *
 * const why = (r: Divisions.RefusedReceiver) => `${r.errCode ?? ''} ${r.errMsg ?? ''}`.trim();
 * ```
 */
export interface DivisionReceiverRefused extends BindAnswerFields, NotUniquelySigned {
  /** 0: refused by the channel; nothing stored. */
  readonly bindState: typeof DivisionBindState.Refused;
  /** Never present: nothing was stored. */
  readonly receiverId?: undefined;
}

/**
 * What {@link GatewayClient.bindDivisionReceiver} resolves to: a bound receiver (`bindState` 1, with `receiverId`) or
 * the channel's refusal (`bindState` 0, nothing stored). Check `bindState` before you read `receiverId`.
 *
 * @example
 * ```ts
 * import { Divisions } from 'payment-gateway-sdk';
 *
 * const id = (r: Divisions.BindResult): number | undefined => (r.bindState === Divisions.BindState.Bound ? r.receiverId : undefined);
 * ```
 */
export type DivisionReceiverBindResult = DivisionReceiverBound | DivisionReceiverRefused;

/** One element of `receivers`: a receiver or a whole group, with an optional share replacing the stored one. */
const receiverShareObject = () =>
  z
    .strictObject({
      /** A receiver's id (from `bindDivisionReceiver`). Give this or `receiverGroupId`. */
      receiverId: z.optional(divisionId()),
      /** A group's id: every active receiver of it for this order's channel and application. Give this or `receiverId`. */
      receiverGroupId: z.optional(divisionId()),
      /** This division's share for the receiver, or for **each** receiver of the group, instead of the stored one: a decimal string. */
      divisionProfit: z.optional(divisionShare()),
    })
    .check(
      z.refine((element) => (element.receiverId === undefined) !== (element.receiverGroupId === undefined), {
        error: 'give receiverId or receiverGroupId: exactly one of them per element (a receiver named by both is selected twice)',
      }),
    );

/**
 * One element of {@link Divisions.ExecParams}' `receivers`: a receiver (`receiverId`) or a receiver group
 * (`receiverGroupId`: each of its active receivers), with an optional share that replaces the stored one for this
 * division (for a group: the share of **each** of its receivers).
 *
 * @example
 * ```ts
 * import type { Divisions } from 'payment-gateway-sdk';
 *
 * const receivers: Divisions.ReceiverShare[] = [{ receiverId: 800001, divisionProfit: '0.2' }, { receiverId: 800002 }];
 * ```
 */
export type DivisionReceiverShare = ExactlyOne<z.input<ReturnType<typeof receiverShareObject>>, 'receiverId' | 'receiverGroupId'>;

type CheckedShare = z.output<ReturnType<typeof receiverShareObject>>;

// A duplicate, or shares summing over 1, as the issues of the list (paths into it); the sum in whole millionths.
function receiversProblems(list: readonly CheckedShare[]): { readonly path: (string | number)[]; readonly message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const seen = new Map<string, number>();
  let sum = 0;
  list.forEach((element, index) => {
    const [field, id] = element.receiverId !== undefined ? (['receiverId', element.receiverId] as const) : (['receiverGroupId', element.receiverGroupId] as const);
    const first = seen.get(`${field}:${id}`);
    if (first !== undefined) problems.push({ path: [index, field], message: `names the same ${field} as element ${first}: the gateway would pay it twice` });
    else seen.set(`${field}:${id}`, index);
    if (element.divisionProfit !== undefined) sum += shareMillionths(element.divisionProfit) ?? 0;
  });
  if (sum > SHARE_SCALE) problems.push({ path: [], message: 'shares sum to more than 1 (the whole divisible amount): the gateway would try to pay more than the order holds and the channel would refuse the whole batch' });
  return problems;
}

/** The list as the strict JSON text that is signed and sent: each element's id, then its share, as strings of digits and decimals. */
function receiversText(list: readonly CheckedShare[]): string {
  return JSON.stringify(
    list.map((element) => ({
      ...(element.receiverId !== undefined ? { receiverId: element.receiverId } : { receiverGroupId: element.receiverGroupId }),
      ...(element.divisionProfit !== undefined && { divisionProfit: element.divisionProfit }),
    })),
  );
}

/** `receivers`: the typed list, checked (no duplicate, shares within 1), sent as one JSON string. */
// Checks and an in-place rewrite rather than a pipe and a transform (0.3 KB gzipped in the bundle): the list is
// checked only once its elements are, and sent as text only once it passed (the issues below end the parse).
const receiversParam = () =>
  z
    .array(receiverShareObject(), { error: 'must be a list of { receiverId } or { receiverGroupId } elements' })
    .check(
      z.superRefine((list, ctx) => {
        if (ctx.issues.length > 0) return;
        for (const { path, message } of receiversProblems(list)) ctx.issues.push({ code: 'custom', message, input: list, path });
      }),
      z.overwrite((list) => receiversText(list) as never),
    ) as unknown as z.ZodMiniType<string, readonly DivisionReceiverShare[]>;

/**
 * The warning for `receivers` naming receivers by id and groups too (read from the caller's parameters as given):
 * the gateway takes a receiver once per element that selects it, so an account listed and in a listed group is paid
 * twice. `undefined` when the list does not mix them.
 */
export function mixedReceiversCaution(params: Readonly<Record<string, unknown>>): string | undefined {
  const list = params.receivers;
  if (!Array.isArray(list)) return undefined;
  const has = (field: string) => list.some((element: unknown) => typeof element === 'object' && element !== null && (element as Record<string, unknown>)[field] !== undefined);
  if (!has('receiverId') || !has('receiverGroupId')) return undefined;
  return 'receivers names receivers by receiverId and groups by receiverGroupId: a receiver that is also in a listed group is paid twice (the gateway takes it once per element); make sure none is';
}

const EMPTY_LIST = '[]';

const execParamsObject = () =>
  z.strictObject({
    /** The gateway's id of the paid order to divide. Give this or `mchOrderNo`. */
    payOrderId: z.optional(requiredText()),
    /** Your number of the paid order to divide. Give this or `payOrderId`. */
    mchOrderNo: z.optional(requiredText()),
    /** `true`: divide to your auto-division group (the portal's flag), each receiver at its stored share. Sent as 1; 0 otherwise. */
    useSysAutoDivisionReceivers: z._default(
      // Rewritten in place (no pipe in the bundle): only a `true` that passed reaches the rewrite.
      z.literal(true, { error: 'must be true (divide to the auto-division group); to name receivers, give receivers instead' }).check(z.overwrite(() => 1 as never)) as unknown as z.ZodMiniType<0 | 1, true>,
      0,
    ),
    /** The receivers and groups to divide to, each at most once; shares as decimal strings summing to at most 1. */
    receivers: z.optional(receiversParam()),
    /** `true`: divide to nobody, releasing the whole divisible amount to you, irrevocably. Not sent (an empty `receivers` is). */
    releaseAllToMerchant: z.optional(notSent(z.literal(true, { error: 'must be true, to release the whole amount to you on purpose' }))),
  });

type ExecFields = z.input<ReturnType<typeof execParamsObject>>;
type CheckedExec = z.output<ReturnType<typeof execParamsObject>>;

// Which of the three ways the parameters name, or why none or several.
function targetProblem(params: CheckedExec): string | undefined {
  const auto = params.useSysAutoDivisionReceivers === 1;
  const release = params.releaseAllToMerchant === true;
  const listed = params.receivers !== undefined && params.receivers !== EMPTY_LIST;
  if (auto && (listed || release || params.receivers !== undefined)) return 'give useSysAutoDivisionReceivers alone: the gateway ignores receivers with it';
  if (release && listed) return 'releaseAllToMerchant divides to nobody: give it without receivers (or with an empty list), or give receivers without it';
  if (auto || release || listed) return undefined;
  if (params.receivers === EMPTY_LIST) {
    return 'an empty list divides to nobody: the gateway would release the whole divisible amount to you and the order could never be divided again. To do that on purpose, give releaseAllToMerchant: true';
  }
  return 'give receivers, useSysAutoDivisionReceivers: true, or releaseAllToMerchant: true';
}

/**
 * Checks {@link Divisions.ExecParams}: exactly one order id, exactly one way to divide, the list checked; and makes
 * the wire request (`releaseAllToMerchant` becomes an empty `receivers`, which is what the gateway reads).
 */
export const divisionExecParamsSchema = lazySchema(() =>
  withInput<DivisionExecParams>()(
    execParamsObject().check(
      z.refine((params) => (params.payOrderId === undefined) !== (params.mchOrderNo === undefined), {
        error: (issue) =>
          (issue.input as ExecFields).payOrderId === undefined
            ? 'give payOrderId or mchOrderNo of the paid order'
            : 'give payOrderId or mchOrderNo of the paid order, not both: the gateway would divide the order of payOrderId whatever mchOrderNo names',
      }),
      z.superRefine((params, ctx) => {
        const problem = targetProblem(params);
        if (problem !== undefined) ctx.issues.push({ code: 'custom', message: problem, input: params, path: ['receivers'] });
      }),
      z.overwrite((params) => {
        const { releaseAllToMerchant, ...wire } = params;
        return (releaseAllToMerchant ? { ...wire, receivers: EMPTY_LIST } : wire) as CheckedExec;
      }),
    ),
  ),
);

/** The three ways to divide, exactly one of which an {@link Divisions.ExecParams} gives. */
type ExecTarget =
  | { readonly receivers: readonly DivisionReceiverShare[]; readonly useSysAutoDivisionReceivers?: never; readonly releaseAllToMerchant?: never }
  | { readonly useSysAutoDivisionReceivers: true; readonly receivers?: never; readonly releaseAllToMerchant?: never }
  | { readonly releaseAllToMerchant: true; readonly receivers?: readonly []; readonly useSysAutoDivisionReceivers?: never };

/**
 * Parameters of {@link GatewayClient.executeDivision}: the paid order (`payOrderId` or `mchOrderNo`, not both) and
 * exactly one of: `receivers` (a non-empty list, each receiver or group once, shares summing to at most 1),
 * `useSysAutoDivisionReceivers: true` (your auto-division group at the stored shares), or
 * `releaseAllToMerchant: true` (nobody: everything to you, irrevocably).
 *
 * @example
 * ```ts
 * import type { Divisions } from 'payment-gateway-sdk';
 *
 * const division: Divisions.ExecParams = {
 *   mchOrderNo: 'order-1001',
 *   receivers: [{ receiverId: 800001, divisionProfit: '0.25' }, { receiverId: 800002, divisionProfit: '0.05' }],
 * };
 * ```
 */
export type DivisionExecParams = ExactlyOne<Pick<ExecFields, 'payOrderId' | 'mchOrderNo'>, 'payOrderId' | 'mchOrderNo'> & ExecTarget;

const execResultObject = () =>
  z.looseObject({
    /** 1 succeeded, 2 failed, 3 accepted (result not known yet): see {@link DivisionExecState}. */
    state: z.enum(DivisionExecState, { error: 'must be a division state 1, 2 or 3' }),
    /** The channel's batch number (Alipay: the payment's trade number; WeChat without receivers: the unfreeze order). */
    channelBatchOrderId: z.optional(z.string()),
    /** The channel's error code when it failed. */
    errCode: z.optional(z.string()),
    /** The channel's error description when it failed. */
    errMsg: z.optional(freeText(z.string())),
  });
/** The schema typed by {@link Divisions.ExecResult}, so compile errors name it. */
export const divisionExecResultSchema = lazySchema(() => named<z.input<ReturnType<typeof execResultObject>>, DivisionExecResult>()(execResultObject()));

/**
 * What {@link GatewayClient.executeDivision} resolves to: the division's outcome, and nothing else (the gateway
 * answers no order id, amount or record). `state` 3 is accepted, not yet known: never treat it as failed.
 *
 * @example
 * ```ts
 * import { Divisions } from 'payment-gateway-sdk';
 *
 * const settled = (r: Divisions.ExecResult) => r.state !== Divisions.ExecState.Accepted; // 3: see the merchant portal later
 * ```
 */
export interface DivisionExecResult extends z.output<ReturnType<typeof execResultObject>>, NotUniquelySigned {}
