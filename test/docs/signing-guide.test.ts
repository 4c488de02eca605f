// docs/guides/signing.md is recomputed here: every worked example with the SDK's signer, every common
// mistake with its MD5 and what the diagnosis says, and the sample output of `sign`/`verify`. Editing the
// guide or the signer so that they disagree fails this file.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../../src/cli/signed-message.js';
import { diagnoseSignature, REDACTED_SECRET } from '../../src/testing/domain/diagnose.js';
import { sign, signingString } from '../../src/protocol/signing/sign.js';
import { runInProcess } from '../support/cli-in-process.js';
import { GUIDE_SECRET, guideCommandSamples, guideExamples, guideMistakes } from '../support/signing-guide.js';

const examples = guideExamples();
const mistakes = guideMistakes();
const exampleNumbered = (n: number) => {
  const example = examples.find((e) => e.number === n);
  if (!example) throw new Error(`no Example ${n} in the guide`);
  return example;
};

describe('docs/guides/signing.md: worked examples', () => {
  it('has the examples the guide promises: an order, a query, close, non-ASCII, case twins, a decimal', () => {
    const titles = examples.map((e) => e.title).join('\n');
    for (const topic of [/unifiedOrder request/, /a query/, /data` of close/, /non-ASCII/, /case twins/, /decimal/]) expect(titles).toMatch(topic);
  });

  it.each(examples.map((e) => [e.title, e] as const))('%s: the signed string and the sign are the SDK\'s', (_title, example) => {
    const message = readMessage(example.message);
    expect(signingString(message.fields, GUIDE_SECRET)).toBe(example.signed);
    expect(sign(message.fields, GUIDE_SECRET)).toBe(example.sign);
    expect(createHash('md5').update(example.signed, 'utf8').digest('hex').toUpperCase()).toBe(example.sign);
    // A message shown with its sign carries the right one.
    if (message.sign !== undefined) expect(message.sign).toBe(example.sign);
  });
});

describe('docs/guides/signing.md: common mistakes', () => {
  it('lists the mistakes the issue names', () => {
    const titles = mistakes.map((m) => m.title).join('\n');
    for (const topic of [/leading `&`/, /empty value/, /case-sensitive sort/, /`key=` missing/, /without `key=`/, /Lower-case hex/, /decimal re-stringified/]) expect(titles).toMatch(topic);
  });

  it.each(mistakes.map((m) => [m.title, m] as const))('%s: its MD5, and verify names it', (_title, mistake) => {
    const bytes = Buffer.from(mistake.signed, mistake.bytes === 'UTF-8' ? 'utf8' : 'latin1');
    expect(createHash('md5').update(bytes).digest('hex')).toBe(mistake.sign.toLowerCase());
    const message = readMessage(exampleNumbered(mistake.example).message);
    const diagnosis = diagnoseSignature({ fields: message.fields, unsignedFields: message.unsigned, received: mistake.sign, secret: GUIDE_SECRET });
    if (diagnosis.verdict === 'valid') {
      expect(diagnosis.note).toBe(mistake.verifySays);
      return;
    }
    expect(diagnosis.verdict).toBe('wrong-sign');
    if (diagnosis.verdict !== 'wrong-sign') return;
    expect(diagnosis.mistake?.summary).toBe(mistake.verifySays);
    // What verify shows as signed is the guide's string with the secret redacted (the text, for another encoding).
    if (mistake.bytes === 'UTF-8') expect(diagnosis.mistake?.signedString).toBe(mistake.signed.replace(`key=${GUIDE_SECRET}`, `key=${REDACTED_SECRET}`).replace(GUIDE_SECRET, REDACTED_SECRET));
  });
});

describe('docs/guides/signing.md: the output of sign and verify', () => {
  it.each(guideCommandSamples().map((s) => [s.command, s] as const))('payment-gateway-sdk %s prints what the guide shows', async (command, sample) => {
    const result = await runInProcess([command], sample.stdin, { GATEWAY_SECRET: GUIDE_SECRET });
    expect(result.stdout).toBe(sample.output);
    expect(result.code).toBe(command === 'sign' ? 0 : 1);
    expect(result.stdout + result.stderr).not.toContain(GUIDE_SECRET);
  });
});
