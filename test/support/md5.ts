import { createHash } from 'node:crypto';

/** Upper-case hex MD5 of a string's UTF-8 bytes (or of bytes), written independently of the SDK. */
export const md5 = (text: string | Uint8Array): string => createHash('md5').update(text).digest('hex').toUpperCase();
