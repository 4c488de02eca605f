/**
 * The `payment-gateway-sdk` executable (package.json `bin`). See {@link main}.
 *
 * @module
 */
import { main } from './cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`payment-gateway-sdk: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
