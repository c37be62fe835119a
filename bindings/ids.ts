// The one encoding of every handle a world gives out: its bodies' ids and its parts' handles
// (prefabs, instances, characters, surfaces, polyhedra, balls, controllers, monsters).
//
//   id = ((generation x KINDS + kind) x WORLD_TAGS + tag) x SLOT_SPAN + slot
//
//   slot        24 bits   index into the part's stores, views and query outputs
//   tag          8 bits   the world's: another world's id is refused
//   kind         4 bits   IdKind.*: a surface's handle is not a ball's, though both may be slot 0
//   generation  17 bits   1 .. MAX_GENERATION - 1: a removed (or cleared) handle is refused after
//                         its slot is reused
//
// 53 bits in all, so every id is an exact integer in a double (at most Number.MAX_SAFE_INTEGER), and
// the generation is at least 1, so no id is NULL_ID (0). Views and hit records index by slot; each
// part's indexOf(handle) and idAt(kind, slot) go between the two.
import { describe, HitcoreError } from "./validate.js";

export const SLOT_SPAN = 2 ** 24;
export const WORLD_TAGS = 256;
const KINDS = 16;
/** A slot whose generation reaches it is retired (or, for a part cleared as a whole, the count starts again at 1). */
export const MAX_GENERATION = 2 ** 17;
const TAG_SPAN = SLOT_SPAN * WORLD_TAGS; // 2^32
const KIND_SPAN = TAG_SPAN * KINDS; // 2^36

/** No entity: what idAt returns for a free slot. */
export const NULL_ID = 0;

/** What a handle names: the world's bodies and each part's pieces. */
export const IdKind = {
  Body: 0, Prefab: 1, Instance: 2, Character: 3, Surface: 4, Polyhedron: 5, Ball: 6, Controller: 7, Monster: 8,
} as const;
const KIND_KEYS = Object.keys(IdKind);
const KIND_NAMES = ["a body", "a prefab", "an instance", "a character", "a surface", "a polyhedron", "a ball", "a controller", "a monster"];

/** The world's tag, which its parts read when they make or check a handle (restore may change it). */
export interface WorldTag {
  tag: number;
}

/** The id of slot `slot` of kind `kind` at `generation`, in the world tagged `tag`. */
export function makeId(generation: number, kind: number, tag: number, slot: number): number {
  return ((generation * KINDS + kind) * WORLD_TAGS + tag) * SLOT_SPAN + slot;
}

/** The generation an id carries (check slotFor first). */
export function generationOf(id: number): number {
  return Math.floor(id / KIND_SPAN);
}

// The checks below run on every call that takes a handle, so they split an id with one division:
// hi = floor(id / 2^24) is below 2^29, an int32, so its fields come out with bit operations, and the
// slot is id - hi x 2^24 (exact). A double's % would be a call into the runtime (fmod) in V8.

/** The slot of any well-formed id (its low 24 bits); -1 for anything that is not a number. */
export function slotOf(id: number): number {
  if (typeof id !== "number") return -1;
  return id - Math.floor(id / SLOT_SPAN) * SLOT_SPAN;
}

/**
 * The slot `id` names when it is an id of kind `kind` of the world tagged `tag`; -1 otherwise. The
 * caller checks the slot against its count and the generation against the slot's.
 */
export function slotFor(id: number, tag: number, kind: number): number {
  if (!Number.isInteger(id) || id < KIND_SPAN || id > Number.MAX_SAFE_INTEGER) return -1;
  const hi = Math.floor(id / SLOT_SPAN);
  if ((hi & 0xff) !== tag || ((hi >>> 8) & 0xf) !== kind) return -1;
  return id - hi * SLOT_SPAN;
}

/** The next generation of a slot or a cleared part: after MAX_GENERATION - 1 the count starts again at 1. */
export function nextGeneration(generation: number): number {
  return generation + 1 < MAX_GENERATION ? generation + 1 : 1;
}

/**
 * The UNKNOWN_ID refusal of `method` for `id`, which is not a live handle of kind `kind` of the
 * world tagged `tag` (whose part holds `slots` slots of that kind), saying why and how to fix it.
 * `what` names what was expected when that is more than one kind; `cleared` is the generation of a
 * part whose pieces are cleared all at once (clearLevel, clearBalls), when it is one.
 */
export function unknownId(method: string, id: number, tag: number, kind: number, slots: number, fix: string, what = KIND_NAMES[kind], cleared = 0): HitcoreError {
  let why: string;
  const given = typeof id === "number" ? Math.floor(id / TAG_SPAN) % KINDS : -1;
  if (!Number.isInteger(id) || id < KIND_SPAN || id > Number.MAX_SAFE_INTEGER) why = `${describe(id)} is not an id`;
  else if (Math.floor(id / SLOT_SPAN) % WORLD_TAGS !== tag) why = `id ${id} belongs to another world`;
  else if (given !== kind) why = `id ${id} names ${KIND_NAMES[given] ?? "nothing hitcore makes"}, not ${what}`;
  else if (cleared > 0 && generationOf(id) !== cleared) why = `id ${id} was cleared`;
  else if (id % SLOT_SPAN >= slots) why = `id ${id} was never issued by this world`;
  else why = `id ${id} was removed`;
  return new HitcoreError("UNKNOWN_ID", `${method}: ${why}. ${fix}`);
}

/** INVALID_KIND for idAt(kind, index) on a part that makes no handle of that kind. */
export function wrongKind(method: string, kind: number, kinds: readonly number[]): HitcoreError {
  return new HitcoreError("INVALID_KIND", `${method}: kind must be one of ${kinds.map((k) => `IdKind.${KIND_KEYS[k]}`).join(", ")} here, got ${describe(kind)}.`);
}

/** The kind of a well-formed id of the world tagged `tag`, or -1 (for parts' indexOf, which take any of their kinds). */
export function kindFor(id: number, tag: number): number {
  if (!Number.isInteger(id) || id < KIND_SPAN || id > Number.MAX_SAFE_INTEGER) return -1;
  const hi = Math.floor(id / SLOT_SPAN);
  return (hi & 0xff) === tag ? (hi >>> 8) & 0xf : -1;
}

// Tags of the worlds not yet disposed. A new world takes the next tag no live world holds, so the
// ids of two live worlds never match while fewer than WORLD_TAGS are alive at once.
const liveTags = new Set<number>();
let nextTag = 0;

/** A tag for a new world: the next one no live world holds (or, with WORLD_TAGS alive, the next one). */
export function takeTag(): number {
  for (let k = 0; k < WORLD_TAGS; k++) {
    const tag = (nextTag + k) % WORLD_TAGS;
    if (!liveTags.has(tag)) {
      liveTags.add(tag);
      nextTag = (tag + 1) % WORLD_TAGS;
      return tag;
    }
  }
  const tag = nextTag;
  nextTag = (nextTag + 1) % WORLD_TAGS;
  return tag;
}

/** Frees a disposed world's tag. */
export function releaseTag(tag: number): void {
  liveTags.delete(tag);
}

/** A restored world answers to the snapshot's tag: it holds that one instead of its own. */
export function swapTag(from: number, to: number): void {
  liveTags.delete(from);
  liveTags.add(to);
}
