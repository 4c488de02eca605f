// The README's and the guides' code blocks compile (strict, as the rest of the project): each comes from one of these files
// (scripts/readme-snippets.ts), and vitest's type check fails on an error in any of them.
import { expectTypeOf, test } from 'vitest';
import '../../examples/readme/quick-start.js';
import '../../examples/readme/unified-order.js';
import '../../examples/readme/wait-for-order.js';
import '../../examples/readme/query-and-close.js';
import '../../examples/readme/settlement.js';
import '../../examples/readme/sign.js';
import '../../examples/readme/processor.js';
import '../../examples/readme/verify-notification.js';
import type { client } from '../../examples/readme/logger.js';
import '../../examples/readme/testing.js';
import '../../examples/readme/sweep.js';
import '../../examples/readme/opentelemetry.js';
import '../../examples/readme/refunds.js';
import '../../examples/readme/channel-user.js';
// docs/guides/refunds.md (its test, examples/refunds/refunds.test.ts, runs against the mock).
import '../../examples/refunds/refund.js';
import '../../examples/refunds/lost-answer.js';
import '../../examples/refunds/refusals.js';
import '../../examples/refunds/processor.js';
// docs/guides/channel-user.md.
import '../../examples/channel-user/jump.js';
import '../../examples/channel-user/return.js';
import type { GatewayClient } from '../../src/index.js';

test('the README blocks compile; the logging one builds a client', () => {
  expectTypeOf<typeof client>().toEqualTypeOf<GatewayClient>();
});
