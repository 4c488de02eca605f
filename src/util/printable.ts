/**
 * Received text made safe to print on a terminal: a request, a notification or a message on stdin is
 * hostile, and an escape sequence or a bidirectional override in it could rewrite what people read.
 *
 * @module
 */

/** C0 controls, DEL, C1 controls and the Unicode bidirectional controls (marks, embeddings, overrides, isolates). */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with each control character escaped (`\n`, `\u001b`, `\u202e`), so it stays on its line and reads as sent. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
