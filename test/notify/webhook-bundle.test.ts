// A webhook that only verifies notifications bundles no operation row (the rule `notify-reads-operations-types-only`
// in .dependency-cruiser.mjs keeps notify's imports of the table to types; this checks what a bundler keeps).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/operations/table.js';

const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

async function bundle(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
    bundle: true, write: false, format: 'esm', platform: 'neutral', conditions: ['worker', 'browser'], logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

describe('a bundle that only verifies notifications', () => {
  it("carries every kind's notification and none of the operations' paths", async () => {
    const code = await bundle(`import { verifyNotification, verifyRefundNotification, verifyTransferNotification, verifySettlementNotification } from ${JSON.stringify(entry)};
      export const verifiers = [verifyNotification, verifyRefundNotification, verifyTransferNotification, verifySettlementNotification];`);
    expect(code).toMatch(/["']on_transferred["']/);
    const paths = Object.values(operations).map((row) => row.path);
    expect(paths.filter((path) => code.includes(path))).toEqual([]);
  }, 60_000);

  it('a client call carries its row (the check above can fail)', async () => {
    const code = await bundle(`import { GatewayClient } from ${JSON.stringify(entry)}; export const make = (o) => new GatewayClient(o);`);
    expect(code).toContain(operations.transferOrder.path);
  }, 60_000);
});
