// Zero cost when unused (issue 27): the main entry never imports @opentelemetry/api, nor the module that does;
// only payment-gateway-sdk/opentelemetry does. The built dist is checked by entry.slow.test.ts.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function bundle(entry: string) {
  const result = await build({ entryPoints: [`${root}${entry}`], bundle: true, format: 'esm', platform: 'node', write: false, metafile: true, logLevel: 'silent', external: ['@opentelemetry/api'] });
  return { inputs: Object.keys(result.metafile.inputs), imports: Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((i) => i.path)), code: result.outputFiles[0]!.text };
}

describe('the entries and @opentelemetry/api', () => {
  it('the main entry bundles nothing of OpenTelemetry and imports none of it', async () => {
    const main = await bundle('src/index.ts');
    expect(main.inputs.filter((input) => /opentelemetry/i.test(input))).toEqual([]);
    expect(main.imports.filter((path) => path.includes('@opentelemetry'))).toEqual([]);
    expect(main.code).not.toContain('@opentelemetry');
  });

  it('payment-gateway-sdk/opentelemetry imports @opentelemetry/api, left to the application (a peer dependency)', async () => {
    const entry = await bundle('src/opentelemetry.ts');
    expect(entry.imports).toContain('@opentelemetry/api');
    expect(entry.inputs.filter((input) => input.includes('node_modules'))).toEqual([]);
  });
});
