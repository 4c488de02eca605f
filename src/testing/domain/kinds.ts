/**
 * The record kinds the mock runs on its generic desk, in the order its state, dashboard, control routes and CLI list
 * them. Adding a kind to the mock is declaring it (`record-kind.ts`) and naming it here.
 *
 * @module
 */
import { definitionOf } from '../../operations/table.js';
import { maskPersonalFields } from '../../protocol/schemas/free-text.js';
import { objectFields } from '../../protocol/schemas/introspect.js';
import { RecordDesk } from './record-desk.js';
import { stateFieldOf, sumOfOrder, type DecisionOf, type MockKindView, type MockParts, type MockRecordBase, type MockRecordKind, type MockRecordReader, type ModeOf, type RecordOf, type WorldOf } from './record-kind.js';
import { paymentKind, type MockPaymentMethods } from '../../kinds/payments/mock.js';
import { refundKind, type MockRefundMethods } from '../../kinds/refunds/mock.js';
import { transferKind, type MockTransferMethods } from '../../kinds/transfers/mock.js';
import { settlementKind, type MockSettlementMethods } from '../../kinds/settlements/mock.js';

/** Every declared kind of the mock, in the order their desks are built: payments first, whose orders refunds' world reads. */
export const MOCK_KINDS = [paymentKind, refundKind, transferKind, settlementKind] as const;

/**
 * The gateway's methods of every declared kind, as each kind documents them; `kind-methods.ts` derives them from
 * the declarations and fails to compile unless this is exactly that.
 *
 * @example
 * ```ts
 * gateway.setTransferMode('hold');
 * ```
 */
export interface MockKindMethods extends MockPaymentMethods, MockRefundMethods, MockTransferMethods, MockSettlementMethods {}

/** What a notification may be named by in a resend: the id and key of each declared kind the mock notifies. */
const NOTIFICATION_REFS: readonly string[] = [
  ...new Set([...(MOCK_KINDS as readonly MockKindView[]).flatMap((kind) => (kind.states.notified.length === 0 ? [] : [kind.id, kind.key]))]),
];
/** The same, as messages and usage name them: `payOrderId, mchOrderNo, refundOrderId or mchRefundNo`. */
export const NOTIFICATION_REFS_TEXT = `${NOTIFICATION_REFS.slice(0, -1).join(', ')} or ${String(NOTIFICATION_REFS.at(-1))}`;

/** A declared kind, by name. */
export type MockKind = (typeof MOCK_KINDS)[number];
export type MockKindName = MockKind['name'];
/** The declared kind of a name. */
export type KindNamed<Name extends MockKindName> = Extract<MockKind, { readonly name: Name }>;

/** The desk of each declared kind, by name. */
export type MockDesks = { readonly [Name in MockKindName]: RecordDesk<RecordOf<KindNamed<Name>>, WorldOf<KindNamed<Name>>, ModeOf<KindNamed<Name>>, DecisionOf<KindNamed<Name>>> };

/** The state's member of each declared kind: its records, newest first. */
export type MockKindRecords = { readonly [K in MockKind as K['plural']]: readonly RecordOf<K>[] };

/**
 * A desk for each declared kind, built in `MOCK_KINDS`' order: a kind's world reads the desks of the kinds before it
 * (`parts.desk(name)`: refunds' the orders'). `onNotified` is told of a record that reached a notified state; `signed`
 * signs a record's notified fields (the notifier's rule, with its merchant's secret).
 */
export function createDesks(clock: MockParts['clock'], onNotified: (kind: MockKind, record: MockRecordBase) => void, signed: MockParts['signed']): MockDesks {
  const desks: Record<string, MockRecordReader<unknown>> = {};
  const parts: MockParts = {
    clock,
    signed,
    desk: <R>(name: string) => {
      const desk = desks[name];
      if (desk === undefined) throw new Error(`no desk ${name} is built yet: declare its kind before the kinds that read it (MOCK_KINDS)`);
      return desk as MockRecordReader<R>;
    },
  };
  for (const kind of MOCK_KINDS as readonly MockKind[]) desks[kind.name] = new RecordDesk(kind as unknown as MockRecordKind, parts, (record) => onNotified(kind, record));
  return desks as unknown as MockDesks;
}

/** What the records of the declared kinds took from an order (its succeeded refunds): each `ofOrder` kind's sum over the order's records. */
export function takenFromOrder(desks: MockDesks, payOrderId: string): number {
  return (MOCK_KINDS as readonly MockKindView[]).reduce((sum, kind) => {
    const of = kind.ofOrder;
    if (of === undefined) return sum;
    const records = (desks[kind.name as MockKindName].list() as readonly object[] as readonly Readonly<Record<string, unknown>>[]).filter((r) => r[of.field] === payOrderId);
    return sum + sumOfOrder(of, records, stateFieldOf(kind));
  }, 0);
}

/**
 * A notification's fields as the mock's views show them (the state, the dashboard, a log event): those its kind's query
 * result marks personal (a payee's account and name) masked. `gateway.notifications` and `gateway.deliveries` keep
 * them as sent, signed, for a test to post again.
 */
export function viewedFields(kindName: string, fields: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const kind = (MOCK_KINDS as readonly MockKind[]).find((k) => k.name === kindName);
  return kind === undefined ? fields : maskPersonalFields(fields, objectFields(definitionOf(kind.operations.query).result).personal);
}
