/**
 * The division kind's public names (分账, profit sharing), as `Divisions.*` from the package root: what
 * `bindDivisionReceiver` and `executeDivision` take and resolve to, their outcome values, account types and relation
 * types. A division runs once per order and cannot be looked up: see the division guide.
 *
 * @example
 * ```ts
 * import { Divisions } from 'payment-gateway-sdk';
 *
 * const params: Divisions.ExecParams = { mchOrderNo: 'order-1001', receivers: [{ receiverId: 800001, divisionProfit: '0.3' }] };
 * const division: Divisions.ExecResult = await client.executeDivision(params);
 * console.log(Divisions.execStateName(division.state)); // 'Succeeded', 'Failed' or 'Accepted'
 * ```
 *
 * @module
 */
export {
  DivisionAccountType as AccountType,
  DivisionBindState as BindState,
  DivisionExecState as ExecState,
  DIVISION_RELATION_TYPES as RELATION_TYPES,
  divisionExecStateName as execStateName,
  type DivisionExecParams as ExecParams,
  type DivisionExecResult as ExecResult,
  type DivisionReceiverBindParams as BindParams,
  type DivisionReceiverBindResult as BindResult,
  type DivisionReceiverBound as BoundReceiver,
  type DivisionReceiverRefused as RefusedReceiver,
  type DivisionReceiverShare as ReceiverShare,
  type DivisionRelationType as RelationType,
} from './schemas.js';
