// The built package (dist/): the main entry never loads @opentelemetry/api; the opentelemetry entry requires it
// from the application, in both module formats, and works with the built client.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/shipped-package.mjs';
import { ensureBuilt } from '../support/build.js';

const dist = (file: string) => readFile(join(repoRoot, 'dist', file), 'utf8');

beforeAll(ensureBuilt, 300_000);

describe('dist', () => {
  // The docs may name the package; no import, require or import type of it may be there.
  const OTEL_IMPORT = /(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']@opentelemetry\//;
  it.each(['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts'])('%s has no @opentelemetry import', async (file) => {
    const text = await dist(file);
    expect(text).toContain('GatewayClient');
    expect(text).not.toMatch(OTEL_IMPORT);
  });

  it('opentelemetry.js and .cjs import @opentelemetry/api (external), and nothing of the client', async () => {
    expect(await dist('opentelemetry.js')).toMatch(/from ["']@opentelemetry\/api["']/);
    expect(await dist('opentelemetry.d.ts')).toMatch(/from ["']@opentelemetry\/api["']/);
    expect(await dist('opentelemetry.cjs')).toMatch(/require\(["']@opentelemetry\/api["']\)/);
    expect(await dist('opentelemetry.js')).not.toContain('GatewayClient');
  });

  it('the built entries work together: a span per call', async () => {
    const { GatewayClient } = (await import(join(repoRoot, 'dist', 'index.js'))) as typeof import('../../src/index.js');
    const { openTelemetry } = (await import(join(repoRoot, 'dist', 'opentelemetry.js'))) as typeof import('../../src/opentelemetry.js');
    const { createMockGateway } = (await import(join(repoRoot, 'dist', 'testing.js'))) as typeof import('../../src/testing/index.js');
    const { inMemoryOpenTelemetry } = await import('./support.js');
    const merchant = { mchNo: 'M1', appId: 'A1', secret: 'dist-secret-0123456789' };
    const gateway = createMockGateway({ merchants: [merchant] });
    const otel = inMemoryOpenTelemetry();
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, fetch: gateway.fetch, telemetry: openTelemetry(otel) });
    await client.unifiedOrder({ mchOrderNo: 'dist-1', wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', subject: 's', body: 'b' });
    expect(otel.spans().map((span) => span.name)).toEqual(['POST', 'payment_gateway.unifiedOrder']);
  });
});
