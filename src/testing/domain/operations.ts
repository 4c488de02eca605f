/**
 * Each operation's business step; routing, binding, signing and errors are shared by all of them.
 *
 * @module
 */
import type { OperationName } from '../../operations/table.js';
import type { AcceptedRequest } from './accepted-request.js';
import { MOCK_KINDS, type MockDesks, type MockKind } from './kinds.js';
import type { RecordDesk } from './record-desk.js';
import { partOperations, type MockPartWorlds } from './mock-part.js';
import { PART_VIEWS, type MockPartKind } from './parts.js';

export interface OperationContext extends AcceptedRequest {
  /** The desk of each declared record kind. */
  readonly desks: MockDesks;
  /** The world of each declared part. */
  readonly parts: MockPartWorlds;
  /** The origin (and base path) the gateway is reached by, for the cashier links in `payData`. */
  readonly origin: string;
  /** The `closeRacesPayer` fault struck this request. */
  readonly payerFirst?: boolean;
  /** The `refusedAfterStore` fault struck this create: store its record, leave it here, ask no channel. */
  readonly interrupted?: 'created' | 'processing' | undefined;
}

type Step = (context: OperationContext) => Readonly<Record<string, unknown>>;
type ActionOf<K> = K extends { readonly actions?: infer Actions } ? keyof NonNullable<Actions> & OperationName : never;
type KindOperation = MockKind['operations'][keyof MockKind['operations']] | ActionOf<MockKind>;
/** The operations the declared parts answer. */
type PartOperation = keyof MockPartKind['operations'];
// Each kind's desk, as any desk: a union of desks takes no record of either.
const deskOf = (desks: MockDesks, kind: MockKind) => desks[kind.name] as unknown as RecordDesk;

/** Each declared kind's create, query and further operations (payments' close), answered by its desk. */
const KIND_OPERATIONS = Object.fromEntries(
  MOCK_KINDS.flatMap((kind): [KindOperation, Step][] => [
    [kind.operations.create, ({ desks, interrupted, origin, ...request }) => deskOf(desks, kind).create(request, interrupted, origin)],
    [kind.operations.query, ({ desks, app, params }) => deskOf(desks, kind).queryData(deskOf(desks, kind).find(app, params))],
    ...Object.keys((kind as { readonly actions?: object }).actions ?? {}).map((operation): [KindOperation, Step] => [
      operation as KindOperation,
      ({ desks, app, params, payerFirst }) => deskOf(desks, kind).act(operation as OperationName, app, params, payerFirst),
    ]),
  ]),
) as { readonly [Op in KindOperation]: Step };

/** The `data` of each operation's success answer, or a {@link Refusal} thrown. */
export const OPERATIONS: { readonly [Op in OperationName]: Step } = {
  ...KIND_OPERATIONS,
  ...(partOperations<OperationContext>(PART_VIEWS) as { readonly [Op in PartOperation]: Step }),
};
