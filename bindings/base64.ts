// Base64 for the map loaders, in one linear pass each way: `atob` throws a DOMException that names
// no field, and a regular expression over the padding (/=+$/) backtracks quadratically on a run of
// '=' followed by anything else. Whitespace (TMX wraps its base64 in newlines) is skipped; padding
// is optional but may only end the text.
import { HitcoreError } from "./validate.js";

const SKIP = -2;
const BAD = -1;
/** Character code -> 6-bit value, SKIP for whitespace, BAD for anything else. */
const VALUE = new Int8Array(128).fill(BAD);
{
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < 64; i++) VALUE[alphabet.charCodeAt(i)] = i;
  for (const c of " \t\r\n") VALUE[c.charCodeAt(0)] = SKIP;
}

function fail(where: string, problem: string): never {
  throw new HitcoreError("MALFORMED_MAP", `${where} is not valid base64: ${problem}. Re-save the map from Tiled, or check what rewrote the text.`);
}

function shown(text: string, at: number): string {
  return JSON.stringify(String.fromCodePoint(text.codePointAt(at)!));
}

/**
 * The number of bytes `text` decodes to, after checking every character: an error names `where`
 * and the offset of the first bad character. Allocates nothing, so callers compare the length
 * with what they expect before any buffer exists.
 */
export function base64Length(text: string, where: string): number {
  let digits = 0, pads = 0, padAt = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? VALUE[c] : BAD;
    if (v === SKIP) continue;
    if (c === 61 /* = */) {
      if (++pads > 2) fail(where, `a third padding '=' at offset ${i}`);
      if (padAt < 0) padAt = i;
      continue;
    }
    if (v === BAD) fail(where, `character ${shown(text, i)} at offset ${i}`);
    if (pads > 0) fail(where, `padding '=' at offset ${padAt} is followed by more data (offset ${i})`);
    digits++;
  }
  if (digits % 4 === 1) fail(where, `${digits} base64 digits leave one dangling (a group of four digits makes three bytes)`);
  if (pads > 0 && (digits + pads) % 4 !== 0) fail(where, `${pads} padding '=' after ${digits} digits`);
  return Math.floor((digits * 6) / 8);
}

/** Decodes text already checked by base64Length into `out` (exactly that many bytes). */
export function decodeBase64Into(text: string, out: Uint8Array): Uint8Array {
  let acc = 0, bits = 0, o = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? VALUE[c] : BAD;
    if (v < 0) continue; // whitespace and padding (checked already)
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** Checks and decodes `text`; errors name `where`. */
export function decodeBase64(text: string, where: string): Uint8Array {
  return decodeBase64Into(text, new Uint8Array(base64Length(text, where)));
}
