// `payment-gateway-sdk sign` and `verify` as child processes of the built command (dist/cli.js, built first
// when missing or stale): stdin piped in, the secret from the environment or a file, exit codes, and the
// signing guide's worked examples, common mistakes and sample output.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/lib/shipped-package.mjs';
import { BUILT_CLI, ensureBuilt } from '../support/build.js';
import { GUIDE_SECRET, guideCommandSamples, guideExamples, guideMistakes, withSign } from '../support/signing-guide.js';

const dir = mkdtempSync(join(tmpdir(), 'pgsdk-cli-slow-'));
const secretFile = join(dir, 'secret.txt');

/** The built command with `args`, `stdin` piped in, and only the environment given (plus PATH). */
function command(args: readonly string[], stdin: string, env: Record<string, string> = { GATEWAY_SECRET: GUIDE_SECRET }) {
  return run(process.execPath, [BUILT_CLI, ...args], { input: stdin, env: { PATH: process.env.PATH ?? '', ...env }, allowFailure: true, timeoutMs: 30_000 });
}

beforeAll(async () => {
  await ensureBuilt();
  writeFileSync(secretFile, `${GUIDE_SECRET}\n`);
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the guide, through the built command', () => {
  it.each(guideExamples().map((e) => [e.title, e] as const))('%s: sign prints its string (secret as ***) and sign; verify says valid', async (_title, example) => {
    const signed = await command(['sign'], example.message);
    expect(signed.code).toBe(0);
    expect(signed.stdout).toContain(`canonical: ${example.signed.replace(`key=${GUIDE_SECRET}`, 'key=***')}\nsign:      ${example.sign}\n`);
    const verified = await command(['verify', '--secret-file', secretFile], withSign(example.message, example.sign), {});
    expect({ code: verified.code, first: verified.stdout.split('\n')[0] }).toEqual({ code: 0, first: 'valid' });
    for (const output of [signed, verified]) expect(output.stdout + output.stderr).not.toContain(GUIDE_SECRET);
  });

  it.each(guideCommandSamples().map((s) => [s.command, s] as const))('payment-gateway-sdk %s prints exactly the guide\'s sample', async (name, sample) => {
    const result = await command([name], sample.stdin);
    expect(result.stdout).toBe(sample.output);
    expect(result.code).toBe(name === 'sign' ? 0 : 1);
  });

  it.each(guideMistakes().map((m) => [m.title, m] as const))('%s: verify names the mistake', async (_title, mistake) => {
    const example = guideExamples().find((e) => e.number === mistake.example)!;
    const result = await command(['verify'], withSign(example.message, mistake.sign));
    const valid = mistake.verifySays.includes('lower-case hex');
    expect(result.code).toBe(valid ? 0 : 1);
    expect(result.stdout).toContain(valid ? `note:      ${mistake.verifySays}\n` : `mistake:   ${mistake.verifySays}\n`);
  });
});

describe('the command line', () => {
  it('--help lists mock, sign and verify; sign --help and verify --help list their options', async () => {
    const help = await command(['--help'], '');
    expect(help.code).toBe(0);
    for (const usage of ['payment-gateway-sdk mock [options]', 'payment-gateway-sdk sign [options] < body', 'payment-gateway-sdk verify [options] < message']) expect(help.stdout).toContain(usage);
    const verifyHelp = await command(['verify', '--help'], '');
    expect(verifyHelp.code).toBe(0);
    for (const flag of ['--secret-file FILE', '--secret-env NAME', '--ignore-key KEY', 'Exit codes: 0 valid; 1 invalid; 2 usage']) expect(verifyHelp.stdout).toContain(flag);
    expect((await command(['sign', '--help'], '')).stdout).toContain('--secret-file FILE');
  });

  it('refuses --secret (exit code 2) and says why; no secret at all is exit code 2 too', async () => {
    const refused = await command(['sign', '--secret', GUIDE_SECRET], '{"a":"1"}', {});
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain('--secret is refused: a secret given as an argument is visible to every user of this machine (ps, /proc)');
    expect(refused.stderr).not.toContain(GUIDE_SECRET);
    const none = await command(['verify'], '{"a":"1"}', {});
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toContain('no secret: GATEWAY_SECRET is not set');
  });

  it('reads a body piped in several chunks', async () => {
    const example = guideExamples()[0]!;
    const chunks = example.message.match(/[\s\S]{1,7}/g) ?? [];
    const child = spawn(process.execPath, [BUILT_CLI, 'sign'], { env: { PATH: process.env.PATH ?? '', GATEWAY_SECRET: GUIDE_SECRET } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    for (const chunk of chunks) await new Promise<void>((resolve) => child.stdin.write(chunk, () => resolve()));
    child.stdin.end();
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(out).toContain(`sign:      ${example.sign}\n`);
  });
});
