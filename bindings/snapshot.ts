// A world's state as bytes (world.snapshot / world.restore), for rollback netcode and save games.
//
//   magic "HITCORE\0" | u32 format | u32 state bytes | u32 memory bytes | u32 CRC-32 of what follows
//   | state: the facade's fields (tagged values, below) | memory: the core's memory [0, heap top)
//
// The state is what each part keeps in JavaScript beside the memory (slot counts, generations, free
// lists, region offsets, the level's source records): the fields each part lists, encoded as tagged
// values. Nothing is read from the bytes until the whole of them has passed the length and CRC
// checks, and nothing in the world changes until the whole state has been decoded and checked
// against the world (world.restore).

import { HitcoreError } from "./validate.js";

/**
 * The format this build writes and reads; a snapshot from another format is refused. Its state holds
 * every part's handle generations (bindings/ids.ts).
 */
export const SNAPSHOT_FORMAT = 3;

const MAGIC = [0x48, 0x49, 0x54, 0x43, 0x4f, 0x52, 0x45, 0x00]; // "HITCORE\0"
const PREAMBLE = 24;

/** A value the state may hold. */
export type StateValue =
  | number | boolean | string | null | undefined
  | Int32Array | Uint32Array | Float64Array | Float32Array | Uint8Array
  | StateValue[] | { [key: string]: StateValue };

// Value tags, one byte before each value: plain constants, which a bundler inlines (a const enum
// compiles to an object under isolatedModules).
const T_UNDEFINED = 0, T_NULL = 1, T_FALSE = 2, T_TRUE = 3, T_NUMBER = 4, T_STRING = 5, T_ARRAY = 6, T_OBJECT = 7, T_I32 = 8, T_U32 = 9, T_F64 = 10, T_F32 = 11, T_U8 = 12;

const TYPED = [
  [T_I32, Int32Array], [T_U32, Uint32Array], [T_F64, Float64Array], [T_F32, Float32Array], [T_U8, Uint8Array],
] as const;

let table: Int32Array | null = null;

/** CRC-32 (IEEE 802.3, the zlib and PNG one) of bytes. */
export function crc32(bytes: Uint8Array): number {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** Appends tagged values to a growing byte buffer. */
class Writer {
  bytes = new Uint8Array(1024);
  at = 0;
  private readonly scratch = new DataView(new ArrayBuffer(8));

  private room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(2 * this.bytes.length, this.at + n));
    next.set(this.bytes.subarray(0, this.at));
    this.bytes = next;
  }

  u8(v: number): void {
    this.room(1);
    this.bytes[this.at++] = v;
  }

  u32(v: number): void {
    this.scratch.setUint32(0, v, true);
    this.raw(new Uint8Array(this.scratch.buffer, 0, 4));
  }

  f64(v: number): void {
    this.scratch.setFloat64(0, v, true);
    this.raw(new Uint8Array(this.scratch.buffer, 0, 8));
  }

  raw(b: Uint8Array): void {
    this.room(b.length);
    this.bytes.set(b, this.at);
    this.at += b.length;
  }

  value(v: StateValue): void {
    if (v === undefined) return this.u8(T_UNDEFINED);
    if (v === null) return this.u8(T_NULL);
    if (v === false || v === true) return this.u8(v ? T_TRUE : T_FALSE);
    if (typeof v === "number") { this.u8(T_NUMBER); return this.f64(v); }
    if (typeof v === "string") {
      const b = new TextEncoder().encode(v);
      this.u8(T_STRING); this.u32(b.length); return this.raw(b);
    }
    for (const [tag, type] of TYPED) {
      if (v instanceof type) {
        // Little-endian on every engine hitcore runs on (wasm memory is little-endian too).
        this.u8(tag); this.u32(v.length); return this.raw(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      }
    }
    if (Array.isArray(v)) {
      this.u8(T_ARRAY); this.u32(v.length);
      for (const item of v) this.value(item);
      return;
    }
    const keys = Object.keys(v);
    this.u8(T_OBJECT); this.u32(keys.length);
    for (const k of keys) { this.value(k); this.value((v as { [key: string]: StateValue })[k]); }
  }
}

/** Reads tagged values back; any read past the end or unknown tag is a SNAPSHOT_CORRUPT error. */
class Reader {
  at = 0;
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number): void {
    if (this.at + n > this.bytes.length) corrupt(`the state ends early (at byte ${this.at})`);
  }

  u8(): number { this.need(1); return this.bytes[this.at++]; }
  u32(): number { this.need(4); const v = this.view.getUint32(this.at, true); this.at += 4; return v; }
  f64(): number { this.need(8); const v = this.view.getFloat64(this.at, true); this.at += 8; return v; }

  value(depth = 0): StateValue {
    if (depth > 16) corrupt("the state nests too deeply");
    const tag = this.u8();
    switch (tag) {
      case T_UNDEFINED: return undefined;
      case T_NULL: return null;
      case T_FALSE: return false;
      case T_TRUE: return true;
      case T_NUMBER: return this.f64();
      case T_STRING: {
        const n = this.u32(); this.need(n);
        const s = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + n));
        this.at += n;
        return s;
      }
      case T_ARRAY: {
        const n = this.u32(), out: StateValue[] = [];
        for (let k = 0; k < n; k++) out.push(this.value(depth + 1));
        return out;
      }
      case T_OBJECT: {
        const n = this.u32(), out: { [key: string]: StateValue } = Object.create(null);
        for (let k = 0; k < n; k++) {
          const key = this.value(depth + 1);
          if (typeof key !== "string") corrupt("an object key is not a string");
          out[key] = this.value(depth + 1);
        }
        return out;
      }
    }
    for (const [t, type] of TYPED) {
      if (t !== tag) continue;
      const n = this.u32(), bytes = n * type.BYTES_PER_ELEMENT;
      this.need(bytes);
      const copy = new Uint8Array(this.bytes.subarray(this.at, this.at + bytes));
      this.at += bytes;
      return new type(copy.buffer);
    }
    return corrupt(`unknown value tag ${tag} at byte ${this.at - 1}`);
  }
}

function corrupt(why: string): never {
  throw new HitcoreError("SNAPSHOT_CORRUPT", `restore: the snapshot is damaged (${why}). Pass the bytes world.snapshot() returned, unchanged.`);
}

/** The bytes of a snapshot: the facade's state and the memory's first `memoryBytes` bytes. */
export function encodeSnapshot(state: StateValue, memory: Uint8Array): Uint8Array {
  const w = new Writer();
  w.value(state);
  const out = new Uint8Array(PREAMBLE + w.at + memory.length);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint32(8, SNAPSHOT_FORMAT, true);
  view.setUint32(12, w.at, true);
  view.setUint32(16, memory.length, true);
  out.set(w.bytes.subarray(0, w.at), PREAMBLE);
  out.set(memory, PREAMBLE + w.at);
  view.setUint32(20, crc32(out.subarray(PREAMBLE)), true);
  return out;
}

/** Checks and decodes a snapshot; throws SNAPSHOT_CORRUPT or SNAPSHOT_FORMAT without changing anything. */
export function decodeSnapshot(bytes: unknown): { state: StateValue; memory: Uint8Array } {
  if (!(bytes instanceof Uint8Array)) {
    throw new HitcoreError("INVALID_BUFFER", `restore: expected the Uint8Array world.snapshot() returned, got ${bytes === null ? "null" : typeof bytes}.`);
  }
  if (bytes.length < PREAMBLE || MAGIC.some((b, i) => bytes[i] !== b)) corrupt("it does not start with a hitcore snapshot's header");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const format = view.getUint32(8, true);
  if (format !== SNAPSHOT_FORMAT) {
    throw new HitcoreError("SNAPSHOT_FORMAT", `restore: the snapshot is format ${format}; this hitcore reads format ${SNAPSHOT_FORMAT}. Restore it with the hitcore version that wrote it.`);
  }
  const stateBytes = view.getUint32(12, true), memoryBytes = view.getUint32(16, true);
  if (PREAMBLE + stateBytes + memoryBytes !== bytes.length) corrupt(`it holds ${bytes.length} bytes where its header says ${PREAMBLE + stateBytes + memoryBytes}: truncated or padded`);
  if (crc32(bytes.subarray(PREAMBLE)) !== view.getUint32(20, true)) corrupt("its checksum does not match its contents");
  const reader = new Reader(bytes.subarray(PREAMBLE, PREAMBLE + stateBytes));
  const state = reader.value();
  if (reader.at !== stateBytes) corrupt("the state has bytes past its end");
  return { state, memory: bytes.subarray(PREAMBLE + stateBytes) };
}

/** The fields `keys` of `part`, as state. */
export function pick(part: object, keys: readonly string[]): { [key: string]: StateValue } {
  const out: { [key: string]: StateValue } = {};
  for (const k of keys) out[k] = copyValue((part as Record<string, StateValue>)[k]);
  return out;
}

/** A deep copy, so a snapshot never shares arrays with the live world. */
function copyValue(v: StateValue): StateValue {
  if (v === null || typeof v !== "object") return v;
  if (ArrayBuffer.isView(v)) return v.slice();
  if (Array.isArray(v)) return v.map(copyValue);
  const out: { [key: string]: StateValue } = {};
  for (const k of Object.keys(v)) out[k] = copyValue(v[k]);
  return out;
}

/**
 * Checks that `state` has every field of `like` (the live part's own state) with the same kind of
 * value, recursively, so a restore assigns only what the part already holds. Throws SNAPSHOT_CORRUPT.
 */
export function checkShape(state: StateValue, like: StateValue, path: string): void {
  const kind = (v: StateValue) => v === null ? "null" : ArrayBuffer.isView(v) ? v.constructor.name : Array.isArray(v) ? "array" : typeof v;
  if (kind(state) !== kind(like)) corrupt(`${path} is ${kind(state)} where the world holds ${kind(like)}`);
  if (state === null || typeof state !== "object" || ArrayBuffer.isView(state) || Array.isArray(state)) return;
  const l = like as { [key: string]: StateValue };
  for (const k of Object.keys(l)) {
    if (!(k in state)) corrupt(`${path}.${k} is missing`);
    // Arrays of varying contents (free lists, records) are checked where they are used.
    checkShape((state as { [key: string]: StateValue })[k], l[k], `${path}.${k}`);
  }
}

/** Assigns the fields of `state` onto `part` (after checkShape). */
export function assign(part: object, state: { [key: string]: StateValue }): void {
  for (const k of Object.keys(state)) {
    const target = (part as Record<string, unknown>)[k];
    const v = state[k];
    // Plain records the part owns (caps, config, the arena) keep their identity; their fields change.
    if (target !== null && typeof target === "object" && !ArrayBuffer.isView(target) && !Array.isArray(target) && v !== null && typeof v === "object") {
      assign(target, v as { [key: string]: StateValue });
    } else {
      (part as Record<string, unknown>)[k] = v;
    }
  }
}
