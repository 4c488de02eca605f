// `payment-gateway-sdk mock` options refused in this process (src/cli/mock-options.ts): each mistake is named,
// exit code 2, and no part of a value that may hold the secret is printed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMockOptions } from '../../src/cli/mock-options.js';
import { runInProcess } from '../support/cli-in-process.js';

const SECRET = 'my-Secret-9f2c';

describe('--merchant mistakes name the missing part without repeating the value', () => {
  it.each([
    [['--merchant', `M1::${SECRET}`], /the --merchant value has no APPID \(a part between or after its colons is empty;/],
    [['--merchant', SECRET], /the --merchant value has no APPID and no SECRET \(it has no colon;/],
    [['--merchant', `:app-1:${SECRET}`], /has no MCHNO \(/],
    [['--merchant', 'M1:app-1:x', '--merchant', `M2:${SECRET}:`], /--merchant number 2 has no SECRET \(/],
    [['--merchant', 'M1:app-1:x', '--merchant', `M2:${SECRET}`], /a --merchant MCHNO:APPID has no secret of its own: no secret: GATEWAY_SECRET is not set; put it in the GATEWAY_SECRET environment variable/],
    [['--merchant', `M1:app-1:${SECRET.slice(0, 6)} ${SECRET.slice(6)}`.split(' ')].flat(), /mock takes options only, and a word was given without one \(not repeated here, in case it is part of a secret\); quote a value that holds a space/],
  ])('%# refused, exit code 2, the secret nowhere in the output', async (args, message) => {
    const result = await runInProcess(['mock', ...args]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/Run payment-gateway-sdk --help for every option/);
    // No fragment of the secret: neither its start, its end, nor the text after the last colon.
    for (const part of [SECRET, SECRET.slice(0, 6), SECRET.slice(6), SECRET.slice(-4), 'M2:', 'M1::']) expect(result.stderr).not.toContain(part);
  });
});

describe('a value run into its flag, or credentials in --forward-to, are refused without being repeated', () => {
  it.each([
    [['--merchant' + `M1:app-1:${SECRET}`], /an unknown option \(not repeated here, in case a value was run into it\): write --merchant VALUE or --merchant=VALUE/],
    [[`--merchant:M1:app-1:${SECRET}`], /an unknown option \(not repeated here/],
    [['--forward-to', `http://shop:${SECRET}@127.0.0.1:3000/notify`], /--forward-to: must not hold credentials/],
  ])('%# a value run into its flag, or credentials in --forward-to: refused, exit code 2, the secret nowhere in the output', async (args, message) => {
    const result = await runInProcess(['mock', ...args]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
    for (const part of [SECRET, SECRET.slice(0, 6), SECRET.slice(-4)]) expect(result.stderr).not.toContain(part);
  });

  it('a mistyped flag without a value is still named', async () => {
    expect((await runInProcess(['mock', '--prot', '4010'])).stderr).toMatch(/Unknown option '--prot'/);
  });
});

describe('--config mistakes repeat neither the path nor the text of the file', () => {
  it('a missing file, a broken JSON file holding a secret, and a wrong member: named, exit code 2, no value printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), `pgsdk-${SECRET}-`));
    try {
      const broken = join(dir, 'broken.json');
      writeFileSync(broken, `{"merchants": [{"mchNo": "M1", "appId": "app-1", "secret": "${SECRET}"}],, }`);
      const wrong = join(dir, 'wrong.json');
      writeFileSync(wrong, `{"merchants": [{"mchNo": "M1", "secret": "${SECRET}"}]}`);
      const cases = [
        [join(dir, 'missing.json'), /--config: cannot read the file it names \(ENOENT; the path is not repeated here/],
        [broken, /--config: the file it names is not JSON \(its text is not repeated here/],
        [wrong, /--config file: merchants\.0\.appId: is required/],
      ] as const;
      for (const [file, message] of cases) {
        const result = await runInProcess(['mock', '--config', file]);
        expect(result).toMatchObject({ code: 2, stdout: '' });
        expect(result.stderr).toMatch(message);
        expect(result.stderr).not.toContain(SECRET);
        expect(result.stderr).not.toContain(dir);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('--merchant MCHNO:APPID takes its secret from the environment or a file, never shown by ps', () => {
  it('from GATEWAY_SECRET, the variable --secret-env names, or --secret-file (its final line break dropped)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgsdk-secret-'));
    try {
      const file = join(dir, 'secret');
      writeFileSync(file, `${SECRET}-file\n`);
      const merchants = (args: string[], env: Record<string, string> = {}) => readMockOptions(['--merchant', 'M1:app-1', ...args], env).merchants;
      expect(merchants([], { GATEWAY_SECRET: SECRET })).toEqual([{ mchNo: 'M1', appId: 'app-1', secret: SECRET }]);
      expect(merchants(['--secret-env', 'SHOP_SECRET'], { SHOP_SECRET: `${SECRET}-shop`, GATEWAY_SECRET: 'not this one' })[0]!.secret).toBe(`${SECRET}-shop`);
      expect(merchants(['--secret-file', file], { GATEWAY_SECRET: 'not this one' })[0]!.secret).toBe(`${SECRET}-file`);
      // A merchant with its own secret keeps it; the shared one goes to those written without.
      expect(readMockOptions(['--merchant', 'M1:app-1:own:secret', '--merchant', 'M2:app-2'], { GATEWAY_SECRET: SECRET }).merchants.map((m) => m.secret)).toEqual(['own:secret', SECRET]);
      expect(readMockOptions(['--merchant', 'M1:app-1:own'], {}).generated).toBe(false); // no variable needed then
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [['--merchant', 'M1:app-1', '--secret-file', '/nonexistent/secret'], /a --merchant MCHNO:APPID has no secret of its own: --secret-file: cannot read the file it names \(ENOENT;/],
    [['--merchant', 'M1:app-1', '--secret-env', SECRET], /--secret-env must name an environment variable/],
    [['--merchant', 'M1:app-1', '--secret-env', 'SHOP_SECRET'], /the environment variable --secret-env names \(its value is not repeated here/],
    [['--merchant', `M1:app-1:${SECRET}`, '--secret-env', 'SHOP_SECRET'], /--secret-file and --secret-env give the secret of a --merchant MCHNO:APPID written without one/],
  ])('%# refused, exit code 2, no value repeated', async (args, message) => {
    const result = await runInProcess(['mock', ...args]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain(SECRET);
  });
});
