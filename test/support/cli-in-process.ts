// `payment-gateway-sdk …` run in this process through main(), with a given stdin and environment.
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runInProcess(args: readonly string[], stdin = '', env: Record<string, string | undefined> = {}): Promise<CommandResult> {
  const out = new PassThrough();
  const err = new PassThrough();
  const collect = (stream: PassThrough) => {
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    return () => text;
  };
  const stdout = collect(out);
  const stderr = collect(err);
  const code = await main(args, out, err, { stdin: Readable.from([Buffer.from(stdin)]), env });
  return { code, stdout: stdout(), stderr: stderr() };
}
