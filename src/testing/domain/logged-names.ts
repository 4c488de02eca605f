/**
 * The request log's names of the numbers an operation answers that its declared result does not name (the mock's own
 * statuses, where the spec defines none), read from the declarations: each declared kind's states, in its state field,
 * for its create and query (settlements' `status`); each declared part's `logged` (addresses' `status`).
 *
 * @module
 */
import type { OperationName } from '../../operations/table.js';
import { MOCK_KINDS } from './kinds.js';
import type { MockLoggedNames } from './mock-part.js';
import { PART_VIEWS } from './parts.js';
import { stateFieldOf, type MockKindOperations, type MockKindView } from './record-kind.js';

/** A kind's states by number, in its state field. */
const kindNames = (kind: MockKindView): MockLoggedNames => ({ [stateFieldOf(kind)]: Object.fromEntries(Object.entries(kind.states.names).map(([name, state]) => [state, name])) });

/** The names of each operation's logged numbers, by field: `LOGGED_NAMES.settleRequest.status[0]` is `pending`. */
export const LOGGED_NAMES: { readonly [Op in OperationName]?: MockLoggedNames } = Object.fromEntries([
  ...(MOCK_KINDS as readonly (MockKindView & { readonly operations: MockKindOperations })[]).flatMap((kind) => [kind.operations.create, kind.operations.query].map((operation) => [operation, kindNames(kind)])),
  ...PART_VIEWS.flatMap((part) => Object.entries(part.logged ?? {})),
]);
