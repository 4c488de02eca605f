/**
 * The parts of the mock that are not record kinds of its generic desk (`mock-part.ts`), in the order its state,
 * dashboard, control routes and CLI list them. Adding a part to the mock is declaring it and naming it here.
 *
 * @module
 */
import { divisionPart, type MockDivisionMethods } from '../../kinds/division/mock-part.js';
import type { MockDivisionState } from '../../kinds/division/mock-sections.js';
import { addressPart, type MockAddressMethods, type MockAddressState } from '../../kinds/settlements/mock-address-part.js';
import type { MockPartView } from './mock-part.js';

/** Every declared part of the mock. */
export const MOCK_PARTS = [divisionPart, addressPart] as const;

/** The declared parts, as the routes, the handler, the dashboard and the CLI read them. */
export const PART_VIEWS: readonly MockPartView[] = MOCK_PARTS as unknown as readonly MockPartView[];

/**
 * The gateway's methods of every declared part, as each part documents them; `part-methods.ts` derives them from the
 * declarations and fails to compile unless this is exactly that.
 *
 * @example
 * ```ts
 * gateway.setDivisionOutcome({ outcome: 'accepted' });
 * ```
 */
export interface MockPartMethods extends MockDivisionMethods, MockAddressMethods {}

/**
 * The members of the state of every declared part, as each part documents them; `part-methods.ts` derives them from
 * the declarations and fails to compile unless this is exactly that.
 *
 * @example
 * ```ts
 * const { divisionBatches }: MockPartState = gateway.state();
 * ```
 */
export interface MockPartState extends MockDivisionState, MockAddressState {}

/** A declared part. */
export type MockPartKind = (typeof MOCK_PARTS)[number];
