// Compile errors name the parameter and result types (interfaces), not the schema's expanded structure:
// a merchant's wrong call is compiled here with the TypeScript compiler and its messages read.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(root, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(root, '.tmp', 'type-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WRONG_CALLS = `
import { GatewayClient } from '${join(root, 'src/index.js')}';
declare const client: GatewayClient;
await client.unifiedOrder({ mchOrderNo: 'o', wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', subject: 's' });
await client.query({});
await client.settleAddressApply({ requestId: 'r', tokenId: 'TRON_USDT' });
await client.settleRequest({ requestId: 'r', amount: 1, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD' });
await client.settleRequestGet({});
export const order: number = await client.query({ mchOrderNo: 'o' });
export const record: number = await client.settleRequestGet({ requestId: 'r' });
export const result: number = await client.settleRequest({ requestId: 'r', amount: 1, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'T' });
`;

describe('compile errors name the types', () => {
  it('each wrong call is reported with the name of its parameter or result type', () => {
    const file = join(dir, 'wrong-calls.ts');
    writeFileSync(file, WRONG_CALLS);
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023,
      strict: true, exactOptionalPropertyTypes: true, skipLibCheck: true, noEmit: true, types: ['node'], lib: ['lib.es2024.d.ts', 'lib.dom.d.ts'],
    };
    const program = ts.createProgram([file], options);
    const lines = ts.getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(lines).toEqual([
      expect.stringContaining("parameter of type 'UnifiedOrderParams'"),
      expect.stringContaining("parameter of type 'QueryParams'"),
      expect.stringContaining("parameter of type 'SettleAddressApplyParams'"),
      expect.stringContaining("parameter of type 'SettleRequestParams'"), // one of its overloads (with and without confirm)
      expect.stringContaining("parameter of type 'SettleRequestGetParams'"),
      expect.stringMatching(/^Type 'PayOrder' is not assignable to type 'number'\./),
      expect.stringMatching(/^Type 'SettlementRecord' is not assignable to type 'number'\./),
      expect.stringMatching(/^Type 'SettlementResult' is not assignable to type 'number'\./),
    ]);
  }, 60_000);
});
