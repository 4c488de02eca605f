// Notification options: one configuration object serves the client and the verifiers (issue 18 §3).
import { describe, expect, it } from 'vitest';
import { gatewayClientOptionsSchema } from '../../src/client/options.js';
import { GatewayValidationError, verifyNotification, type GatewayClientOptions } from '../../src/index.js';
import { CLIENT_ONLY_OPTIONS } from '../../src/notify/options.js';
import { formBody, MERCHANT, signedFields } from '../support/notification.js';

describe('notification options', () => {
  it("accept a client's whole options object: its transport options are ignored", async () => {
    const config: GatewayClientOptions = { baseUrl: 'https://pay.example.com', ...MERCHANT, timeout: 5_000, retry: { maxRetries: 1 }, logLevel: 'off', hooks: {} };
    await expect(verifyNotification(formBody(signedFields()), config)).resolves.toMatchObject({ state: 2 });
    await expect(verifyNotification(formBody(signedFields()), { ...config, expect: { amount: 58, currency: 'CNY' } })).resolves.toMatchObject({ amount: 58 });
  });

  it('ignore exactly the options a client takes beyond the credentials and the clock', () => {
    const clientOnly = Object.keys(gatewayClientOptionsSchema.def.shape).filter((name) => !['mchNo', 'appId', 'secret', 'now'].includes(name));
    expect([...CLIENT_ONLY_OPTIONS].sort()).toEqual(clientOnly.sort());
  });

  it('still refuse a misspelt option', async () => {
    const error = await verifyNotification(formBody(signedFields()), { ...MERCHANT, maxAgeMS: 1 } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect((error as Error).message).toMatch(/unknown option 'maxAgeMS'.*Did you mean 'maxAgeMs'\?/);
  });
});
