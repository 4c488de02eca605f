// Issue 23 finding 7: a settlement notification requires what a notification carries (reqTime, mchNo, appId,
// bound to the client). A genuine settleRequestGet answer is the same record signed with the same secret, but
// without them: posted to the settlement notify endpoint, it must not run onSettlement. The answer is taken
// from the mock gateway through the client, then replayed at the public verifiers.
import { describe, expect, it, vi } from 'vitest';
import { createNotificationProcessor, GatewayClient, GatewayValidationError, verifySettlementNotification } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret-0123456789' };
const ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';

/** A genuine settleRequestGet answer's signed members: its `data` and `sign`, as an attacker who saw it holds them. */
async function capturedRecordAnswer(): Promise<Record<string, string>> {
  const gateway = createMockGateway({ merchants: [MERCHANT] });
  let answer = '';
  const client = new GatewayClient({
    baseUrl: 'https://gateway.test', ...MERCHANT,
    fetch: async (input, init) => {
      const response = await gateway.fetch(new Request(input, init));
      answer = await response.clone().text();
      return response;
    },
  });
  await client.settleRequest({ requestId: 'settle-1', amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: ADDRESS });
  await client.settleRequestGet({ requestId: 'settle-1' }); // verified by the client: a genuine, signed answer
  const { data, sign } = JSON.parse(answer) as { data: Record<string, unknown>; sign: string };
  const fields: Record<string, string> = { sign };
  for (const [key, value] of Object.entries(data)) if (value !== null && value !== undefined) fields[key] = String(value);
  return fields;
}

describe('a settleRequestGet answer posted to the settlement notify endpoint', () => {
  it('is refused by verifySettlementNotification and by the processor: onSettlement never runs', async () => {
    const record = await capturedRecordAnswer();
    expect(record).toMatchObject({ requestId: 'settle-1', amount: '150000' });
    for (const input of [new URLSearchParams(record).toString(), JSON.stringify(record), record]) {
      const error = (await verifySettlementNotification(input, MERCHANT).catch((e: unknown) => e)) as GatewayValidationError;
      expect(error).toBeInstanceOf(GatewayValidationError);
      expect(error.issues.map((i) => i.path)).toEqual(expect.arrayContaining([['mchNo'], ['appId']]));
      const onSettlement = vi.fn();
      const processor = createNotificationProcessor({ ...MERCHANT, expectSettlement: { requestId: 'settle-1' }, onSettlement });
      const reply = await processor.handle(input);
      expect(reply).toMatchObject({ status: 400, outcome: { kind: 'refused' } });
      expect(onSettlement).not.toHaveBeenCalled();
    }
  });
});
