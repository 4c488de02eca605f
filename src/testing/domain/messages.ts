/**
 * Every `msg` text the mock answers with, in one place so tests can compare against them: the gateway's
 * (`refusals.ts`) and each declared kind's own (its `messages`).
 *
 * @module
 */
import { MOCK_KINDS, type MockKind } from './kinds.js';
import { MESSAGES } from './refusals.js';

/** The members of a union, as one object type (each kind's texts, side by side). */
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every declared kind's own texts. */
type KindMessages = Intersection<NonNullable<MockKind['messages']>>;

/**
 * The `msg` texts the mock answers with, in one place so tests can compare against them. Reference texts
 * (docs/reference/protocol.md section 5) are exact; the others end with an English gloss.
 *
 * @example
 * ```ts
 * import { MOCK_MESSAGES } from 'payment-gateway-sdk/testing';
 *
 * await expect(client.query({ mchOrderNo: 'nope' })).rejects.toMatchObject({ msg: MOCK_MESSAGES.orderNotFound });
 * ```
 */
export const MOCK_MESSAGES = { ...MESSAGES, ...(Object.assign({}, ...MOCK_KINDS.map((kind) => kind.messages)) as KindMessages) };
