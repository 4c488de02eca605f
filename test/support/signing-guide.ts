// docs/guides/signing.md, read as data: its worked examples, its common mistakes and its sample output of
// `payment-gateway-sdk sign`/`verify`, so that tests recompute every one of them.
import { readFileSync } from 'node:fs';

/** The guide's made-up secret. */
export const GUIDE_SECRET = 'EXAMPLE-SECRET';

export const guideText = readFileSync(new URL('../../docs/guides/signing.md', import.meta.url), 'utf8');

export interface GuideExample {
  readonly number: number;
  readonly title: string;
  /** The message as sent (JSON or a form body). */
  readonly message: string;
  /** The string the rule hashes, with the guide's secret. */
  readonly signed: string;
  readonly sign: string;
}

export interface GuideMistake {
  readonly title: string;
  readonly example: number;
  readonly signed: string;
  readonly bytes: 'UTF-8' | 'ISO-8859-1';
  readonly sign: string;
  readonly verifySays: string;
}

/** The text of a `## heading` section (up to the next `## `). */
function section(heading: string): string {
  const start = guideText.indexOf(`\n## ${heading}`);
  if (start < 0) throw new Error(`docs/guides/signing.md has no "## ${heading}" section`);
  const end = guideText.indexOf('\n## ', start + 1);
  return guideText.slice(start, end < 0 ? undefined : end);
}

/** The `### ` subsections of a section: title and body. */
function subsections(text: string): { title: string; body: string }[] {
  return text.split('\n### ').slice(1).map((part) => ({ title: part.slice(0, part.indexOf('\n')), body: part.slice(part.indexOf('\n')) }));
}

/** The fenced code blocks of a text: language and content. */
export function codeBlocks(text: string): { lang: string; content: string }[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gm)].map(([, lang = '', content = '']) => ({ lang, content }));
}

/** `label: value` lines of a block (the value after the colon and its padding). */
function labelled(block: string): Map<string, string> {
  return new Map([...block.matchAll(/^([a-z ]+):[ ]*(.*)$/gm)].map(([, label = '', value = '']) => [label, value]));
}

function required(fields: Map<string, string>, label: string, where: string): string {
  const value = fields.get(label);
  if (value === undefined) throw new Error(`${where}: no "${label}:" line`);
  return value;
}

export function guideExamples(): GuideExample[] {
  return subsections(section('Worked examples')).map(({ title, body }) => {
    const number = Number(/^Example (\d+):/.exec(title)?.[1]);
    const blocks = codeBlocks(body);
    const result = blocks.find((block) => /^signed:/m.test(block.content));
    const message = blocks[0];
    if (!Number.isInteger(number) || !result || !message || message === result) throw new Error(`worked example "${title}" needs a number, a message block and a "signed:" block`);
    const fields = labelled(result.content);
    return { number, title, message: message.content, signed: required(fields, 'signed', title), sign: required(fields, 'sign', title) };
  });
}

export function guideMistakes(): GuideMistake[] {
  return subsections(section('Common mistakes')).map(({ title, body }) => {
    const block = codeBlocks(body).find((b) => /^example:/m.test(b.content));
    if (!block) throw new Error(`common mistake "${title}" has no block with "example:"`);
    const fields = labelled(block.content);
    const bytes = fields.get('bytes') ?? 'UTF-8';
    if (bytes !== 'UTF-8' && bytes !== 'ISO-8859-1') throw new Error(`${title}: bytes must be UTF-8 or ISO-8859-1`);
    return {
      title,
      example: Number(required(fields, 'example', title)),
      signed: required(fields, 'signed', title),
      bytes,
      sign: required(fields, 'sign', title),
      verifySays: required(fields, 'verify says', title),
    };
  });
}

/**
 * The sample output of the commands: `sign` of Example 1, and `verify` of Example 1 carrying the sign shown
 * on the sample's `received:` line. Each with the stdin that produces it.
 */
export function guideCommandSamples(): { command: 'sign' | 'verify'; stdin: string; output: string }[] {
  const outputs = codeBlocks(section('Check your signer')).filter((block) => block.lang === 'text');
  const [signOutput, verifyOutput] = outputs;
  const order = guideExamples().find((example) => example.number === 1);
  if (!signOutput || !verifyOutput || !order) throw new Error('the "Check your signer" section needs the output of sign and of verify, for Example 1');
  const received = required(labelled(verifyOutput.content), 'received', 'the verify sample');
  return [
    { command: 'sign', stdin: order.message, output: `${signOutput.content}\n` },
    { command: 'verify', stdin: withSign(order.message, received), output: `${verifyOutput.content}\n` },
  ];
}

/** A guide message carrying `sign`, edited as text so that every other byte (`10.50`) stays as written. */
export function withSign(message: string, sign: string): string {
  if (!message.trimStart().startsWith('{')) return message.replace(/(^|&)sign=[^&]*/, `$1sign=${sign}`);
  return /"sign":\s*"[^"]*"/.test(message) ? message.replace(/"sign":\s*"[^"]*"/, `"sign":"${sign}"`) : message.replace(/\s*}\s*$/, `,"sign":"${sign}"}`);
}
