/**
 * Division as a part of the mock (`testing/domain/mock-part.ts`), declared once: its world (the receiver book and the
 * division desk), the operations it answers (`bindDivisionReceiver`, `executeDivision`), its controls (groups, the
 * channel's refusals of binds, its outcome of divisions) with their routes and CLI verbs, its reads and members of the
 * state, the 80 s job of mode 1 orders, its dashboard sections and `mock list` lines. The gateway's methods of it are
 * derived from this and checked against {@link MockDivisionMethods}.
 *
 * @module
 */
import { takenFromOrder } from '../../testing/domain/kinds.js';
import { defineMockPart } from '../../testing/domain/mock-part.js';
import { DivisionReceiverBook, divisionGroupInputSchema, receiverBindRefusalSchema, type DivisionGroupInput, type MockDivisionGroup, type MockDivisionReceiver, type ReceiverBindRefusal } from './mock-receivers.js';
import { divisionLines, divisionSections, type MockDivisionState } from './mock-sections.js';
import { DivisionDesk, divisionOutcomeSchema, type DivisionOutcomeInput, type MockDivisionBatch, type MockDivisionRecord } from './mock.js';

/** The mock's divisions: receiver groups and receivers, and the divisions made. */
export interface DivisionWorld {
  readonly receivers: DivisionReceiverBook;
  readonly divisions: DivisionDesk;
}

const EXEC_STATES: Readonly<Record<string, number>> = { succeeded: 1, failed: 2, accepted: 3 };

/** The division part of the mock. */
export const divisionPart = defineMockPart<DivisionWorld, MockDivisionState>()({
  name: 'division',
  world: ({ clock, merchants, desks }) => {
    const receivers = new DivisionReceiverBook(clock, () => [...new Set(merchants.list().map((m) => m.mchNo))]);
    return { receivers, divisions: new DivisionDesk(clock, desks.payment, receivers, (payOrderId) => takenFromOrder(desks, payOrderId)) };
  },
  operations: {
    bindDivisionReceiver: ({ receivers }, request, interrupted) => receivers.bind(request, interrupted),
    executeDivision: ({ divisions }, request, interrupted) => divisions.exec(request, interrupted),
  },
  controls: [
    {
      name: 'createDivisionGroup', argument: 'group', method: 'POST', path: 'division/groups', body: '{ mchNo?, name?, auto? }', bodySchema: divisionGroupInputSchema,
      does: "makes a division receiver group, as the merchant portal does (ids from 100001; mchNo: the first merchant's by default); auto: the merchant's auto division group",
      verb: {
        name: 'division-group',
        options: {
          name: { member: 'name', type: 'string', value: 'NAME', help: 'its name' },
          'mch-no': { member: 'mchNo', type: 'string', value: 'MCHNO', help: "its merchant (default: the mock's first)" },
          auto: { member: 'auto', type: 'boolean', help: 'the auto division group' },
        },
        help: ['makes a division receiver group, as the merchant portal does (ids from 100001); --auto: the', "merchant's auto division group (mode 1 orders are divided to it)"],
        said: (a) => `receiverGroupId ${String(a.receiverGroupId)}  ${JSON.stringify(String(a.receiverGroupName))} of ${String(a.mchNo)}${a.autoDivisionFlag === 1 ? ', the auto division group' : ''}`,
      },
      run: ({ receivers }: DivisionWorld, group?: DivisionGroupInput): MockDivisionGroup => receivers.createGroup(group),
    },
    {
      name: 'refuseReceiverBinds', argument: 'refusal', method: 'POST', path: 'division/receivers/refuse', body: '{ times?, errCode?, errMsg? }', bodySchema: receiverBindRefusalSchema,
      does: 'the channel refuses the next receiver binds (1 by default): answered bindState 0 with errCode and errMsg, nothing stored',
      verb: {
        name: 'receiver-refuse',
        options: { times: { member: 'times', type: 'number', value: 'N', help: 'how many coming binds the channel refuses' } },
        failure: true,
        help: ['the channel refuses the next receiver bind(s) (--times N, default 1): bindState 0, nothing stored'],
        said: (a) => `the channel refuses the next ${String(a.refusedBinds)} receiver bind(s): answered bindState 0, nothing stored`,
      },
      run: ({ receivers }: DivisionWorld, refusal?: ReceiverBindRefusal): { refusedBinds: number } => receivers.refuseBinds(refusal),
    },
    {
      name: 'setDivisionOutcome', argument: 'outcome', method: 'POST', path: 'division/outcome', body: '{ outcome, errCode?, errMsg? }', bodySchema: divisionOutcomeSchema,
      does: "the channel's answer to the coming divisions: 'succeeded' (state 1, the default), 'failed' (2) or 'accepted' (3, as WeChat answers)",
      verb: {
        name: 'division-outcome',
        choices: { member: 'outcome', values: ['succeeded', 'failed', 'accepted'], example: 'accepted' },
        failure: true,
        help: ["the channel's answer to the coming divisions: succeeded (exec state 1, the default), failed (2)", 'or accepted (3, as WeChat answers)'],
        said: (a, failure) => `coming divisions are ${String(a.outcome)} by the channel (exec state ${String(EXEC_STATES[String(a.outcome)] ?? '?')})${a.outcome === 'failed' ? failure(a) : ''}`,
      },
      run: ({ divisions }: DivisionWorld, outcome: DivisionOutcomeInput): DivisionOutcomeInput => divisions.setOutcome(outcome),
    },
  ],
  reads: {
    divisionGroups: ({ receivers }): MockDivisionGroup[] => receivers.groups(),
    divisionReceivers: ({ receivers }): MockDivisionReceiver[] => receivers.receivers(),
    divisions: ({ divisions }): (MockDivisionBatch & { readonly records: readonly MockDivisionRecord[] })[] => {
      divisions.due();
      const records = divisions.records();
      return divisions.batches().map((batch) => ({ ...batch, records: records.filter((r) => r.batchOrderId === batch.batchOrderId) }));
    },
  },
  state: {
    divisionGroups: ({ receivers }) => receivers.groups().reverse(),
    divisionReceivers: ({ receivers }) => receivers.receivers().reverse(),
    divisionBatches: ({ divisions }) => divisions.batches().reverse(),
    divisionRecords: ({ divisions }) => divisions.records().reverse(),
  },
  holds: 'division groups, receivers, batches and records',
  due: ({ divisions }) => divisions.due(),
  sections: divisionSections,
  list: { holds: 'division groups, receivers and divisions', lines: divisionLines },
  summary: { does: "set up divisions (groups, the channel's answers, the order's fee)", with: ['order-fee'] },
});

/**
 * The mock gateway's division methods, derived from `divisionPart` (`testing/part-methods.ts` fails to compile
 * unless this is exactly what the part gives).
 *
 * @example
 * ```ts
 * const { receiverGroupId } = gateway.createDivisionGroup({ name: 'Partners', auto: true });
 * gateway.setDivisionOutcome({ outcome: 'accepted' });
 * ```
 */
export interface MockDivisionMethods {
  /**
   * Makes a division receiver group, as the merchant portal does (the API has none): ids from 100001, of `mchNo`
   * (default: the first merchant configured); `auto` flags it as the auto division group (a mode 1 order, or an exec
   * with `useSysAutoDivisionReceivers` 1, divides to the merchant's first such group).
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when an option is wrong; an `Error` for an unknown `mchNo`
   * @example
   * ```ts
   * const { receiverGroupId } = gateway.createDivisionGroup({ name: 'Partners', auto: true });
   * ```
   */
  createDivisionGroup(group?: DivisionGroupInput): MockDivisionGroup;
  /**
   * The channel refuses the next `times` (default 1) receiver binds: the answer is a success envelope with
   * `bindState` 0 and `errCode`/`errMsg`, and nothing is stored, as from the reference.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when an option is wrong
   * @example
   * ```ts
   * gateway.refuseReceiverBinds({ errCode: 'NAME_MISMATCH', errMsg: 'accName does not match the account' });
   * ```
   */
  refuseReceiverBinds(refusal?: ReceiverBindRefusal): { refusedBinds: number };
  /**
   * The channel's answer to the coming divisions: `succeeded` (exec state 1, records 1; the default), `failed` (2,
   * with `errCode`/`errMsg`) or `accepted` (3, records 3: WeChat's answer, which never is 1). A division with nothing to
   * send (no receiver, or only zero amounts) answers 1 whatever this says. The order's `divisionState` becomes 3 either way.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `outcome` is none of the three
   * @example
   * ```ts
   * gateway.setDivisionOutcome({ outcome: 'failed', errCode: 'NOT_ENOUGH', errMsg: 'frozen funds too low' });
   * ```
   */
  setDivisionOutcome(outcome: DivisionOutcomeInput): DivisionOutcomeInput;
  /**
   * The division receiver groups, oldest first.
   *
   * @example
   * ```ts
   * expect(gateway.divisionGroups().map((g) => g.receiverGroupId)).toEqual([100001]);
   * ```
   */
  divisionGroups(): MockDivisionGroup[];
  /**
   * The bound division receivers, oldest first, their accounts masked: a second bind of one account is a second receiver.
   *
   * @example
   * ```ts
   * expect(gateway.divisionReceivers().map((r) => r.receiverId)).toEqual([800001, 800002]);
   * ```
   */
  divisionReceivers(): MockDivisionReceiver[];
  /**
   * The divisions made, oldest first: each batch with its records.
   *
   * @example
   * ```ts
   * const [division] = gateway.divisions();
   * expect(division?.records.map((r) => r.calDivisionAmount)).toEqual([2982]);
   * ```
   */
  divisions(): (MockDivisionBatch & { readonly records: readonly MockDivisionRecord[] })[];
}
