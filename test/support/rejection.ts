import { GatewayValidationError } from '../../src/index.js';

/** What `promise` rejects with; a promise that resolves fails the test. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a rejection');
  return outcome;
}

/** The `GatewayValidationError` that `run` throws; returning, or throwing anything else, fails the test. */
export function validationError(run: () => unknown): GatewayValidationError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayValidationError) return error;
    throw error;
  }
  throw new Error('expected a GatewayValidationError');
}
