/**
 * The time bound of a store's claim, shared by the stores that hold one without a database transaction (memory,
 * Redis, SQLite): its default, the reason a run's `signal` is aborted with, and what a late finish reports.
 *
 * @module
 */
import { GatewayError } from '../errors/index.js';

/** The default `claimTimeoutMs`: as Postgres's `idleTimeoutMs`; the gateway stops waiting after 20 s anyway. */
export const DEFAULT_CLAIM_TIMEOUT_MS = 60_000;

/** The abort reason of a run that held its claim past `claimTimeoutMs`. */
export function claimTimedOut(claimTimeoutMs: number): GatewayError {
  return new GatewayError(
    `This notification's claim was released: onPaid has run longer than claimTimeoutMs (${claimTimeoutMs} ms), so another delivery may run it now. Stop before any step that cannot be undone.`,
  );
}

/** The warning of a run that finished after its claim was released, by what it found then. */
export function claimLostWarning(found: 'free' | 'running' | 'done'): string {
  const lost = 'onPaid finished after its claim was released (claimTimeoutMs)';
  if (found === 'free') return `${lost}; no other delivery had claimed it: recorded done`;
  if (found === 'done') return `${lost}, and another delivery ran onPaid and finished meanwhile: the effect ran twice`;
  return `${lost}, and another delivery is running onPaid now: the effect may run twice`;
}
