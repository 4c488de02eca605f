import { md5 as nobleMd5 } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

type NodeCrypto = typeof import('node:crypto');

/** Upper-case hex MD5 of the UTF-8 bytes of `text`. */
export type Md5Hex = (text: string) => string;

/**
 * `node:crypto` where the runtime has it (Node, Bun, Deno, workerd with nodejs_compat), found without a
 * static import so the same build loads on edge runtimes; `@noble/hashes` elsewhere (WebCrypto has no MD5).
 */
export function selectMd5(): Md5Hex {
  const crypto = loadNodeCrypto();
  if (crypto) {
    const { createHash } = crypto;
    return (text) => createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();
  }
  return portableMd5Hex;
}

/** The pure-JavaScript MD5, used where `node:crypto` is missing. Exported for tests. */
export const portableMd5Hex: Md5Hex = (text) => bytesToHex(nobleMd5(utf8ToBytes(text))).toUpperCase();

function loadNodeCrypto(): NodeCrypto | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return proc?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  } catch {
    return undefined;
  }
}

export const md5Hex: Md5Hex = selectMd5();
