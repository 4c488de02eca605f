type NodeCrypto = typeof import('node:crypto');

/** Upper-case hex MD5 of the UTF-8 bytes of `text`. */
export type Md5Hex = (text: string) => string;

/**
 * `node:crypto` where the runtime has it (Node, Bun, Deno, workerd with nodejs_compat), found without a
 * static import so the same build loads on edge runtimes; the portable implementation below elsewhere
 * (WebCrypto has no MD5).
 */
export function selectMd5(): Md5Hex {
  const crypto = loadNodeCrypto();
  if (!crypto) return portableMd5Hex;
  // crypto.hash (Node 21.7+) is a one-shot digest, about twice as fast as createHash for short input.
  const { hash, createHash } = crypto;
  if (typeof hash === 'function') return (text) => hash('md5', text, 'hex').toUpperCase();
  return (text) => createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();
}

/** `node:crypto` where the runtime has it, without a static import; `undefined` elsewhere. */
export function loadNodeCrypto(): NodeCrypto | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return proc?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  } catch {
    return undefined;
  }
}

const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const SINES = Array.from({ length: 64 }, (_, i) => (Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

/**
 * MD5 (RFC 1321) in portable JavaScript, for runtimes without `node:crypto`. It replaced
 * `@noble/hashes`' md5, whose shared hashing framework cost 2.2 KB gzipped of the 20 KB budget; this is
 * 0.6 KB, and the tests hold it to `node:crypto` on the signature vectors and random input.
 */
export const portableMd5Hex: Md5Hex = (text) => {
  const bytes = new TextEncoder().encode(text);
  // Message words, little-endian, with the 0x80 terminator and the bit length appended (RFC 1321 3.1-3.2).
  const words = new Uint32Array((((bytes.length + 8) >>> 6) + 1) << 4);
  for (let i = 0; i < bytes.length; i++) words[i >> 2]! |= bytes[i]! << ((i & 3) << 3);
  words[bytes.length >> 2]! |= 0x80 << ((bytes.length & 3) << 3);
  words[words.length - 2] = bytes.length << 3;
  words[words.length - 1] = bytes.length >>> 29;
  const state = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
  for (let block = 0; block < words.length; block += 16) {
    let [a, b, c, d] = state as [number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const round = i >> 4;
      const f = round === 0 ? (b & c) | (~b & d) : round === 1 ? (d & b) | (~d & c) : round === 2 ? b ^ c ^ d : c ^ (b | ~d);
      const g = round === 0 ? i : round === 1 ? (5 * i + 1) & 15 : round === 2 ? (3 * i + 5) & 15 : (7 * i) & 15;
      const sum = (a + f + SINES[i]! + words[block + g]!) | 0;
      const shift = SHIFTS[(round << 2) | (i & 3)]!;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << shift) | (sum >>> (32 - shift)))) | 0;
    }
    state[0] = (state[0]! + a) | 0;
    state[1] = (state[1]! + b) | 0;
    state[2] = (state[2]! + c) | 0;
    state[3] = (state[3]! + d) | 0;
  }
  let hex = '';
  for (const word of state) for (let i = 0; i < 32; i += 8) hex += ((word >>> i) & 0xff).toString(16).padStart(2, '0');
  return hex.toUpperCase();
};

export const md5Hex: Md5Hex = selectMd5();
