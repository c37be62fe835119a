// Tiled maps (https://doc.mapeditor.org/en/stable/reference/json-map-format/ and tmx-map-format/),
// the level editor the tower seed recommends, as Tiled 1.2 and later save them. Pure TS, run once
// at load time, and dependency-free: this file reads the JSON form (and the document tmx.ts makes
// of TMX), with external tilesets and templates handed over by a caller's resolver and compressed
// layer data by a decompressor the hitcore/tiled entry (tiled_load.ts) plugs in.
//   - tile layers (also inside group layers, infinite maps' chunks included) become cell flags,
//     OR'd over all tile layers (or only those named in `tileLayers`). A tile's meaning comes from
//     its tileset: boolean properties `platform`, `ladder`, `coin`, `oneWay`, `spike`, or an int
//     `monster` (the monster type); or a tile `type`/`class` naming one of those. Other tiles are
//     decoration.
//   - object layers become plain typed data for the other stores: rectangles as a Float32Array of
//     (x, y, w, h), polygons (rotated rectangles too) and polylines as Float32Arrays of (x, y)
//     points, with names and properties of every type. Points, ellipses, text and tile objects
//     (even rotated ones) carry no shape the stores take: skipped.
//   - layer offsets add up through groups; a tile layer's must be whole tiles. Parallax only moves
//     a layer on screen: collision uses the positions Tiled shows with the camera at the origin.
// Cells and objects share one frame, Tiled's own: y-down pixels (one tile = tilewidth) with the
// origin at the cells' top-left corner (Tiled's origin for a finite map), Tiled's rows as they are
// (its first row is row 0): no flip. Polygons are made counter-clockwise as drawn (a negative
// shoelace sum in y-down coordinates).
// The file may be hostile: every pass is linear in its size, nothing recurses as deep as the file
// nests (group layers and class values are walked with explicit stacks), properties land in
// objects without a prototype, every declared size is checked against the budget before anything
// is allocated for it, and every refusal is a HitcoreError naming the field by its JSON path (or,
// for TMX, the element and its line).
import { MAX_MAP_CELLS, type ParsedTileMap } from "./ascii_map.js";
import { base64Length, decodeBase64Into } from "./base64.js";
import { CELL_COIN, CELL_LADDER, CELL_ONE_WAY, CELL_PLATFORM, CELL_SPIKE } from "../layout/tiles.js";
import { coordOk, HitcoreError, MAX_COORD } from "./validate.js";

/** A Tiled object's name, class (`type` before Tiled 1.9), layer and custom properties. */
export interface TiledObjectInfo {
  id: number;
  name: string;
  type: string;
  layer: string;
  /** Custom properties by name, in an object without a prototype (a property may be named `__proto__`). */
  properties: Record<string, unknown>;
}

/** A polygon object (or a rotated rectangle): vertices (x0, y0, x1, y1, ...) in Tiled's pixels, y-down, counter-clockwise as drawn. */
export interface TiledPolygon extends TiledObjectInfo {
  vertices: Float32Array;
}

/** A polyline object: its points (x0, y0, x1, y1, ...) in Tiled's pixels, y-down, in the order drawn (at least two). */
export interface TiledPolyline extends TiledObjectInfo {
  points: Float32Array;
}

export interface TiledMap extends ParsedTileMap {
  tileSize: number;
  /**
   * Tiled's pixel position (y down) of the cells' top-left corner: (0, 0), except for infinite
   * maps, whose cells cover their chunks. World x = Tiled x - left, world y = Tiled y - top, y down,
   * for the cells and the objects (rects, polygons) alike.
   */
  left: number;
  top: number;
  /** Rectangle objects as (x, y, w, h) per rectangle: min corner (the top-left), y-down. */
  rects: Float32Array;
  /** rectInfo[k] describes rectangle k. */
  rectInfo: TiledObjectInfo[];
  polygons: TiledPolygon[];
  polylines: TiledPolyline[];
  /** The map's own custom properties. */
  properties: Record<string, unknown>;
}

/** An external tileset or template as a resolver returns it: its text (JSON or TMX's XML), its bytes, or parsed JSON. */
export type TiledFile = string | Uint8Array | ArrayBuffer | object;

export interface TiledOptions {
  /** Only these tile layers give cells (default: every tile layer). */
  tileLayers?: readonly string[];
  /** The most cells the map may cover (default and upper bound MAX_MAP_CELLS, 2^26). */
  maxCells?: number;
  /** The map's own path or URL; external tilesets and templates are resolved against its folder (default ""). */
  path?: string;
  /**
   * Hands over an external tileset (`.tsj`/`.tsx`) or template (`.tj`/`.tx`) by its path (joined to
   * `path`'s folder, `..` and `.` folded; absolute URLs kept). parseTiledMap takes a sync resolver
   * (preloaded files); loadTiledMap from "hitcore/tiled" also takes an async one (fetch).
   */
  resolve?: (path: string) => TiledFile;
  /** The most external files one map may pull in (default 256). */
  maxFiles?: number;
}

/** The options checked, with defaults. */
export interface CheckedOptions {
  tileLayers: readonly string[] | undefined;
  maxCells: number;
  maxFiles: number;
  path: string;
  resolve: ((path: string) => unknown) | undefined;
}

const FLIP_MASK = 0x0fffffff; // gid bits 28-31 are flip/rotation flags
const BOOL_FLAGS: Record<string, number> = { platform: CELL_PLATFORM, ladder: CELL_LADDER, coin: CELL_COIN, oneWay: CELL_ONE_WAY, spike: CELL_SPIKE };
/** Monster spawns a map may hold (each is a (col, row, type) triple). */
const MAX_SPAWNS = 1 << 20;
/** Objects a map may hold, templates expanded. */
const MAX_OBJECTS = 1 << 20;
/** Polygon and polyline points a map may hold, templates expanded. */
const MAX_POINTS = 1 << 22;
/** Points one polyline may hold: each segment becomes a surface, and a line of more is better split or simplified. */
export const MAX_POLYLINE_POINTS = 1 << 16;

export type Json = Record<string, unknown>;

/** TMX elements' names for messages, `<layer name="ground"> (line 12)`, by the object made of them (tmx.ts fills it). */
export const xmlLabels = new WeakMap<object, string>();
/** Fields of TMX objects that came from a child element, `<data> (line 13)`, by object and field. */
export const xmlFieldLabels = new WeakMap<object, Record<string, string>>();

export function fail(message: string, code = "MALFORMED_MAP"): never {
  throw new HitcoreError(code, `Tiled map: ${message}`);
}

function unsupported(message: string): never {
  fail(message, "UNSUPPORTED_MAP");
}

export function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A value as a message shows it: short, whatever the file put there. */
export function show(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v === null || typeof v !== "object") return String(v);
  return "an object";
}

/** The object's name in messages: its TMX element and line, or the JSON path. */
function nameOf(o: object, path: string): string {
  return xmlLabels.get(o) ?? path;
}

/** A field's name in messages: its TMX child element, or attribute, or the JSON path. */
function fieldOf(o: object, where: string, field: string): string {
  const label = xmlFieldLabels.get(o)?.[field];
  if (label !== undefined) return label;
  return xmlLabels.has(o) ? `${where} attribute ${field}` : `${where}.${field}`;
}

function positiveInt(o: Json, field: string, where: string): number {
  const v = o[field];
  if (typeof v !== "number" || !Number.isInteger(v) || v <= 0) fail(`${fieldOf(o, where, field)} must be a positive integer, got ${show(v)}.`);
  return v;
}

function integer(o: Json, field: string, where: string, fallback?: number): number {
  const v = o[field] ?? fallback;
  if (typeof v !== "number" || !Number.isSafeInteger(v)) fail(`${fieldOf(o, where, field)} must be an integer, got ${show(o[field])}.`);
  return v;
}

function finite(o: Json, field: string, where: string, fallback?: number): number {
  const v = o[field] ?? fallback;
  if (typeof v !== "number" || !Number.isFinite(v)) fail(`${fieldOf(o, where, field)} must be a finite number, got ${show(o[field])}.`);
  return v;
}

/** into[key] = value as an own data property, even for the key "__proto__". */
export function defineOwn(into: object, key: string | number, value: unknown): void {
  Object.defineProperty(into, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * A JSON value copied with every object made prototype-less, so no key (`__proto__` included)
 * can reach a prototype. An explicit stack: the value may nest as deep as the file likes.
 */
function plainCopy(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const root = Object.create(null) as Json;
  const stack: [unknown, object, string | number][] = [[value, root, "v"]];
  while (stack.length > 0) {
    const [from, into, key] = stack.pop()!;
    if (typeof from !== "object" || from === null) { defineOwn(into, key, from); continue; }
    if (Array.isArray(from)) {
      const copy: unknown[] = new Array(from.length);
      defineOwn(into, key, copy);
      for (let i = 0; i < from.length; i++) stack.push([from[i], copy, i]);
    } else {
      const copy = Object.create(null) as Json;
      defineOwn(into, key, copy);
      for (const k of Object.keys(from)) stack.push([(from as Json)[k], copy, k]);
    }
  }
  return root.v;
}

const COLOR = /^(#([0-9a-fA-F]{6}|[0-9a-fA-F]{8}))?$/;

/**
 * Custom properties into `out` (prototype-less), each checked against its declared type:
 * string, int, float, bool, color (#RRGGBB or #AARRGGBB, or "" for unset), file (a path), object
 * (an object id) or class (its members, copied). Later names win (an instance over its template).
 */
function readProperties(o: Json, where: string, out: Json = Object.create(null) as Json): Json {
  const list = o.properties;
  if (list === undefined) return out;
  if (isObject(list)) fail(`${fieldOf(o, where, "properties")} is an object: properties saved by Tiled before 1.2; re-save with Tiled 1.2 or newer.`, "UNSUPPORTED_MAP");
  if (!Array.isArray(list)) fail(`${fieldOf(o, where, "properties")} must be an array of {name, type, value}.`);
  for (let k = 0; k < list.length; k++) {
    const p = list[k];
    const pw = isObject(p) ? nameOf(p, `${where}.properties[${k}]`) : `${where}.properties[${k}]`;
    if (!isObject(p) || typeof p.name !== "string") fail(`${pw} needs a string name.`);
    const type = p.type ?? "string", v = p.value;
    if (typeof type !== "string") fail(`${pw} (${show(p.name)}) has type ${show(type)}; Tiled's property types are string, int, float, bool, color, file, object and class.`);
    let ok: boolean;
    switch (type) {
      case "string": case "file": ok = typeof v === "string"; break;
      case "color": ok = typeof v === "string" && COLOR.test(v); break;
      case "int": ok = typeof v === "number" && Number.isSafeInteger(v); break;
      case "object": ok = typeof v === "number" && Number.isSafeInteger(v) && v >= 0; break;
      case "float": ok = typeof v === "number" && Number.isFinite(v); break;
      case "bool": ok = typeof v === "boolean"; break;
      case "class": ok = v === undefined || isObject(v); break;
      default: fail(`${pw} (${show(p.name)}) has type ${show(type)}; Tiled's property types are string, int, float, bool, color, file, object and class.`);
    }
    if (!ok) fail(`${pw} (${show(p.name)}) is ${/^[aeiou]/.test(type) ? "an" : "a"} ${type} property but its value is ${show(v)}${type === "color" ? " (Tiled writes #RRGGBB or #AARRGGBB)" : ""}.`);
    defineOwn(out, p.name, type === "class" ? plainCopy(v ?? {}) : v);
  }
  return out;
}

/** "1.10" -> [1, 10]; a number 1.2 -> [1, 2]; anything else null. */
function versionOf(v: unknown): [number, number] | null {
  const text = typeof v === "number" ? String(v) : typeof v === "string" ? v : "";
  const m = /^(\d{1,4})(?:\.(\d{1,4}))?/.exec(text);
  return m ? [Number(m[1]), Number(m[2] ?? 0)] : null;
}

/** Refuses a file Tiled saved before 1.2 (its JSON differs), saying to re-save it. */
function checkVersion(o: Json, where: string): void {
  for (const field of ["version", "tiledversion"]) {
    const v = versionOf(o[field]);
    if (v !== null && (v[0] < 1 || (v[0] === 1 && v[1] < 2))) {
      unsupported(`${fieldOf(o, where, field)} is ${show(o[field])}: saved by Tiled before 1.2, whose format this loader does not read; re-save with Tiled 1.2 or newer.`);
    }
  }
}

/** Joins a file's `source` to the folder of the file that names it (`base`): URLs by URL rules, paths by folding `.` and `..`. */
export function joinPath(base: string, source: string): string {
  const url = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
  if (url.test(source)) return source;
  if (url.test(base)) {
    try {
      return new URL(source, base).href;
    } catch {
      // not a URL after all: fold as a path
    }
  }
  const parts: string[] = [];
  const absolute = source.startsWith("/") || (source === "" && base.startsWith("/"));
  const all = (source.startsWith("/") ? source : `${base.replace(/[^/\\]*$/, "")}${source}`).split(/[/\\]/);
  for (const part of all) {
    if (part === "" || part === ".") continue;
    if (part === ".." && parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
    else if (part === ".." && absolute) continue;
    else parts.push(part);
  }
  return (absolute || base.startsWith("/") ? "/" : "") + parts.join("/");
}

// ---- what a map needs from outside ----------------------------------------------------------

/** An external file the map names. */
export interface TiledFileNeed {
  path: string;
  /** Where the map names it, for messages. */
  where: string;
}

/** A compressed block of tile data (a layer's or a chunk's). */
export interface TiledBlockNeed {
  /** The layer or chunk object holding it: the key of its decompressed bytes. */
  owner: Json;
  text: string;
  compression: string;
  /** Exactly what it must decompress to: 4 bytes per declared tile. */
  bytes: number;
  where: string;
}

export interface TiledNeeds {
  files: TiledFileNeed[];
  blocks: TiledBlockNeed[];
}

/** What loading `doc` needs from outside: the external files it names and its compressed blocks, the budget checked. */
export function tiledNeeds(doc: unknown, options: CheckedOptions): TiledNeeds {
  if (!isObject(doc)) fail("expected a JSON object with width, height, tilewidth, tileheight, layers.");
  if (doc.type !== undefined && doc.type !== "map") fail(`${nameOf(doc, "map")} is a ${show(doc.type)} file, not a map.`);
  const needs: TiledNeeds = { files: [], blocks: [] };
  const seen = new Set<string>();
  const need = (source: unknown, where: string) => {
    if (typeof source !== "string" || source === "") fail(`${where} must be the file's path, got ${show(source)}.`);
    const path = joinPath(options.path, source);
    if (seen.has(path)) return;
    seen.add(path);
    if (needs.files.length === options.maxFiles) fail(`${where} is file ${options.maxFiles + 1} the map pulls in; the limit is ${options.maxFiles} (maxFiles).`);
    needs.files.push({ path, where });
  };
  const sets = doc.tilesets;
  if (Array.isArray(sets)) {
    for (let s = 0; s < sets.length; s++) {
      const set = sets[s];
      if (isObject(set) && set.source !== undefined) need(set.source, fieldOf(set, nameOf(set, `tilesets[${s}]`), "source"));
    }
  }
  // The map's own size first: the cells are what a finite map's declared size allocates.
  if (doc.infinite !== true && typeof doc.width === "number" && typeof doc.height === "number" && doc.width * doc.height > options.maxCells) {
    fail(`${nameOf(doc, "map")} width x height = ${doc.width * doc.height} cells is over the limit of ${options.maxCells}; split the level.`);
  }
  let tiles = 0;
  const budget = 4 * options.maxCells;
  forEachLayer(doc.layers, "layers", 0, 0, (layer, where) => {
    if (layer.type === "objectgroup" && Array.isArray(layer.objects)) {
      const objects = layer.objects;
      for (let k = 0; k < objects.length; k++) {
        const o = objects[k];
        if (isObject(o) && o.template !== undefined) need(o.template, fieldOf(o, nameOf(o, `${where}.objects[${k}]`), "template"));
      }
    } else if (layer.type === "tilelayer") {
      const compression = layer.compression;
      const blocks: [Json, string][] = [];
      if (Array.isArray(layer.chunks)) {
        for (let c = 0; c < layer.chunks.length; c++) {
          const chunk = layer.chunks[c];
          if (isObject(chunk)) blocks.push([chunk, nameOf(chunk, `${where}.chunks[${c}]`)]);
        }
      } else blocks.push([layer, where]);
      for (const [owner, ow] of blocks) {
        const w = owner.width, h = owner.height;
        if (typeof w === "number" && typeof h === "number" && w > 0 && h > 0) {
          tiles += w * h;
          if (tiles > budget) fail(`${ow} brings the tile layers' declared tiles to over ${budget} (4 x maxCells); split the level.`);
        }
        if (compression === undefined || compression === "" || typeof owner.data !== "string") continue;
        if (typeof compression !== "string" || !["gzip", "zlib", "zstd"].includes(compression)) {
          fail(`${fieldOf(layer, where, "compression")} is ${show(compression)}; Tiled compresses with gzip, zlib or zstd.`);
        }
        if (layer.encoding !== "base64") fail(`${fieldOf(layer, where, "encoding")} is ${show(layer.encoding)}; compressed data must be base64.`);
        const declared = positiveInt(owner, "width", ow) * positiveInt(owner, "height", ow);
        needs.blocks.push({ owner, text: owner.data, compression, bytes: 4 * declared, where: fieldOf(owner, ow, "data") });
      }
    }
  });
  return needs;
}

/**
 * Visits every layer depth-first in file order, group layers through an explicit stack (a file may
 * nest them thousands deep), with the offset its groups add up to.
 */
function forEachLayer(list: unknown, where: string, ox: number, oy: number, visit: (layer: Json, where: string, ox: number, oy: number) => void): void {
  const stack: { list: unknown[]; next: number; where: string; ox: number; oy: number }[] = [];
  const enter = (l: unknown, w: string, x: number, y: number) => {
    if (!Array.isArray(l)) fail(`${w} must be an array of layers.`);
    stack.push({ list: l, next: 0, where: w, ox: x, oy: y });
  };
  enter(list, where, ox, oy);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.next === top.list.length) { stack.pop(); continue; }
    const k = top.next++;
    const layer = top.list[k];
    if (!isObject(layer)) fail(`${top.where}[${k}] must be an object.`);
    const lw = nameOf(layer, `${top.where}[${k}]`);
    const x = top.ox + finite(layer, "offsetx", lw, 0), y = top.oy + finite(layer, "offsety", lw, 0);
    if (layer.type === "group") enter(layer.layers, xmlLabels.has(layer) ? lw : `${lw}.layers`, x, y);
    else if (layer.type === "tilelayer" || layer.type === "objectgroup" || layer.type === "imagelayer") visit(layer, lw, x, y);
    else fail(`${fieldOf(layer, lw, "type")} ${show(layer.type)} is not a Tiled layer type (tilelayer, objectgroup, imagelayer, group).`);
  }
}

// ---- the map --------------------------------------------------------------------------------

/** What the loaders fetched and decompressed for tiledNeeds. */
export interface Prepared {
  /** Parsed external files by path. */
  files: Map<string, unknown>;
  /** Decompressed tile data, 4 bytes per tile, by the layer or chunk that held it. */
  inflated: Map<object, Uint8Array>;
}

/** A block of tile data and where its tiles land, in tiles from Tiled's origin (y down). */
interface Block {
  owner: Json;
  where: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** gid -> CELL_* flags (bits 0-7) and monster type + 1 (bits 8+), from the tilesets. */
function tileMeanings(map: Json, prepared: Prepared, options: CheckedOptions): Map<number, number> {
  const meanings = new Map<number, number>();
  const sets = map.tilesets ?? [];
  if (!Array.isArray(sets)) fail("tilesets must be an array.");
  for (let s = 0; s < sets.length; s++) {
    const entry = sets[s];
    if (!isObject(entry)) fail(`tilesets[${s}] must be an object.`);
    const ew = nameOf(entry, `tilesets[${s}]`);
    const firstgid = positiveInt(entry, "firstgid", ew);
    let set = entry, where = ew;
    if (entry.source !== undefined) {
      const path = joinPath(options.path, entry.source as string);
      const file = prepared.files.get(path);
      if (!isObject(file)) fail(`${fieldOf(entry, ew, "source")} (${show(path)}) is not a tileset file.`);
      set = file;
      where = nameOf(file, path);
      if (file.type !== undefined && file.type !== "tileset") fail(`${where} is a ${show(file.type)} file, not a tileset.`);
      checkVersion(file, where);
    }
    if (set.tileproperties !== undefined) unsupported(`${where} has tileproperties: saved by Tiled before 1.2; re-save with Tiled 1.2 or newer.`);
    const tiles = set.tiles ?? [];
    if (isObject(tiles)) unsupported(`${fieldOf(set, where, "tiles")} is an object keyed by tile id: saved by Tiled before 1.2; re-save with Tiled 1.2 or newer.`);
    if (!Array.isArray(tiles)) fail(`${fieldOf(set, where, "tiles")} must be an array.`);
    for (let t = 0; t < tiles.length; t++) {
      const tile = tiles[t];
      const tw = isObject(tile) ? nameOf(tile, `${where}.tiles[${t}]`) : `${where}.tiles[${t}]`;
      if (!isObject(tile) || typeof tile.id !== "number" || !Number.isSafeInteger(tile.id) || tile.id < 0) fail(`${tw} needs an integer id >= 0.`);
      const props = readProperties(tile, tw);
      let flags = 0;
      let monster = 0;
      const kind = typeof tile.type === "string" ? tile.type : typeof tile.class === "string" ? tile.class : "";
      if (Object.hasOwn(BOOL_FLAGS, kind)) flags |= BOOL_FLAGS[kind];
      if (kind === "monster") monster = 1;
      for (const name of Object.keys(props)) {
        const value = props[name];
        if (Object.hasOwn(BOOL_FLAGS, name)) {
          if (typeof value !== "boolean") fail(`${tw} property ${name} must be a bool, got ${show(value)}.`);
          if (value) flags |= BOOL_FLAGS[name];
        } else if (name === "monster") {
          if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 255) fail(`${tw} property monster must be an int 0-255 (the monster type), got ${show(value)}.`);
          monster = value + 1;
        }
      }
      if (flags !== 0 || monster !== 0) meanings.set(firstgid + tile.id, flags | (monster << 8));
    }
  }
  return meanings;
}

/** How a block's gids are read: a CSV array, base64 text (4 bytes per tile) or decompressed bytes; its length checked. */
function blockSource(block: Block, layer: Json, prepared: Prepared): { array: unknown[] | null; bytes: Uint8Array | null; base64: string } {
  const { owner, where } = block;
  const count = block.w * block.h;
  const dw = fieldOf(owner, where, "data");
  const inflated = prepared.inflated.get(owner);
  if (inflated !== undefined) return { array: null, bytes: inflated, base64: "" };
  const data = owner.data;
  if (Array.isArray(data)) {
    if (data.length !== count) fail(`${dw} has ${data.length} tiles, but width x height is ${count}; the layer size and its data must match.`);
    return { array: data, bytes: null, base64: "" };
  }
  if (typeof data === "string") {
    if (layer.encoding !== "base64") fail(`${dw} is a string but encoding is ${show(layer.encoding)}; save the map with CSV or base64 layer data.`);
    if (layer.compression !== undefined && layer.compression !== "") {
      fail(`${dw} is ${typeof layer.compression === "string" ? layer.compression.slice(0, 20) : show(layer.compression)}-compressed; load it with loadTiledMap or loadTiledMapSync from "hitcore/tiled" (they decompress), or save the map with uncompressed base64 or CSV layer data.`);
    }
    // 4 bytes per tile: the text's length says the size before anything is decoded.
    const bytes = base64Length(data, `Tiled map: ${dw}`);
    if (bytes !== 4 * count) fail(`${dw} decodes to ${bytes} bytes, but width x height is ${count} tiles (${4 * count} bytes).`);
    return { array: null, bytes: null, base64: data };
  }
  fail(`${dw} is missing; a tile layer needs data (CSV array or base64).`);
}

/** Builds the map from its document and what the loader prepared (tiledNeeds' files and blocks). */
export function buildTiledMap(doc: unknown, prepared: Prepared, options: CheckedOptions): TiledMap {
  if (!isObject(doc)) fail("expected a JSON object with width, height, tilewidth, tileheight, layers.");
  const mw = nameOf(doc, "map");
  if (doc.type !== undefined && doc.type !== "map") fail(`${mw} is a ${show(doc.type)} file, not a map.`);
  checkVersion(doc, mw);
  const orientation = doc.orientation ?? "orthogonal";
  if (orientation !== "orthogonal") {
    const why = orientation === "hexagonal" ? "hexagonal cells have six sides, and the tile map's cells are squares with four"
      : orientation === "isometric" || orientation === "staggered" ? `${orientation} maps draw the grid as diamonds, and their object positions are in that projection, which this loader does not undo`
      : "Tiled's orientations are orthogonal, isometric, staggered and hexagonal";
    unsupported(`${fieldOf(doc, mw, "orientation")} is ${show(orientation)}: ${why}. Make the map orthogonal (Tiled: Map > Map Properties > Orientation).`);
  }
  const mapCols = positiveInt(doc, "width", mw);
  const mapRows = positiveInt(doc, "height", mw);
  const tileSize = positiveInt(doc, "tilewidth", mw);
  const tileHeight = positiveInt(doc, "tileheight", mw);
  if (tileHeight !== tileSize) fail(`${mw} tileheight (${tileHeight}) differs from tilewidth (${tileSize}); the tile map needs square tiles.`);
  const infinite = doc.infinite === true || doc.infinite === 1;
  const mapProperties = readProperties(doc, mw);

  // The layers, their offsets added up through groups.
  const tileLayers: { layer: Json; where: string; ox: number; oy: number }[] = [];
  const objectLayers: { layer: Json; where: string; ox: number; oy: number }[] = [];
  forEachLayer(doc.layers, "layers", 0, 0, (layer, where, ox, oy) => {
    if (layer.type === "tilelayer") tileLayers.push({ layer, where, ox, oy });
    else if (layer.type === "objectgroup") objectLayers.push({ layer, where, ox, oy });
  });
  let chosen = tileLayers;
  if (options.tileLayers) {
    const names = new Set(tileLayers.map((l) => l.layer.name));
    for (const name of options.tileLayers) if (!names.has(name)) fail(`no tile layer named ${show(name)}; the map's tile layers are ${tileLayers.map((l) => show(l.layer.name)).join(", ") || "none"}.`);
    const keep = new Set(options.tileLayers);
    chosen = tileLayers.filter((l) => keep.has(l.layer.name as string));
  }

  // Blocks of tile data with where their tiles land; the cells cover the map (or, infinite, the chunks).
  const blocks: { block: Block; layer: Json }[] = [];
  let minX = 0, minY = 0, maxX = mapCols, maxY = mapRows;
  if (infinite && chosen.length > 0) { minX = minY = Infinity; maxX = maxY = -Infinity; }
  for (const { layer, where, ox, oy } of chosen) {
    const dx = ox / tileSize, dy = oy / tileSize;
    if (!Number.isInteger(dx) || !Number.isInteger(dy)) {
      unsupported(`${where} is offset by (${ox}, ${oy}) px, not a whole number of ${tileSize}-px tiles; cells sit on the map's grid. Move the layer (or its group) by whole tiles, or set its offset to 0.`);
    }
    if (infinite) {
      const chunks = layer.chunks;
      if (!Array.isArray(chunks)) fail(`${fieldOf(layer, where, "chunks")} must be an array: the map is infinite, so its tile layers come in chunks.`);
      for (let c = 0; c < chunks.length; c++) {
        const chunk = chunks[c];
        if (!isObject(chunk)) fail(`${where}.chunks[${c}] must be an object.`);
        const cw = nameOf(chunk, `${where}.chunks[${c}]`);
        const x = integer(chunk, "x", cw) + dx, y = integer(chunk, "y", cw) + dy;
        const w = positiveInt(chunk, "width", cw), h = positiveInt(chunk, "height", cw);
        minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x + w); maxY = Math.max(maxY, y + h);
        blocks.push({ block: { owner: chunk, where: cw, x, y, w, h }, layer });
      }
    } else {
      const w = positiveInt(layer, "width", where), h = positiveInt(layer, "height", where);
      if (w !== mapCols || h !== mapRows) fail(`${where} is ${w} x ${h} but the map is ${mapCols} x ${mapRows}; resize the layer to the map.`);
      blocks.push({ block: { owner: layer, where, x: dx, y: dy, w, h }, layer });
    }
  }
  if (minX > maxX) { minX = minY = 0; maxX = mapCols; maxY = mapRows; } // infinite, but no chunk at all
  const cols = maxX - minX, rows = maxY - minY;
  if (cols * rows > options.maxCells) fail(`${mw} covers ${cols} x ${rows} = ${cols * rows} cells, over the limit of ${options.maxCells}; split the level.`);

  // Every block's data length checked before any is decoded or the cells allocated.
  const sources = blocks.map(({ block, layer }) => blockSource(block, layer, prepared));
  const meanings = tileMeanings(doc, prepared, options);

  const cells = new Uint8Array(cols * rows);
  let spawns = new Int32Array(48), spawned = 0;
  for (let b = 0; b < blocks.length; b++) {
    const { block } = blocks[b], source = sources[b];
    const count = block.w * block.h;
    let gids: ArrayLike<unknown>;
    if (source.array !== null) gids = source.array;
    else {
      const bytes = source.bytes ?? decodeBase64Into(source.base64, new Uint8Array(4 * count));
      if (bytes.length !== 4 * count) fail(`${fieldOf(block.owner, block.where, "data")} decompresses to ${bytes.length} bytes, but width x height is ${count} tiles (${4 * count} bytes).`);
      gids = new Uint32Array(bytes.buffer, bytes.byteOffset, count); // little-endian, as Tiled writes it (and every engine runs)
    }
    for (let k = 0; k < count; k++) {
      const raw = gids[k];
      if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 0 || raw > 0xffffffff) {
        fail(`${fieldOf(block.owner, block.where, "data")}[${k}] (row ${Math.floor(k / block.w)}, column ${k % block.w} from the top) is ${show(raw)}, not a tile gid.`);
      }
      const gid = raw & FLIP_MASK;
      if (gid === 0) continue;
      const meaning = meanings.get(gid);
      if (meaning === undefined) continue;
      // Tiled's rows run down, as the tile map's do.
      const col = block.x + (k % block.w) - minX, row = block.y + Math.floor(k / block.w) - minY;
      if (col < 0 || col >= cols || row < 0 || row >= rows) continue; // moved off the map by its offset
      cells[row * cols + col] |= meaning & 0xff;
      if (meaning >> 8) {
        if (spawned === 3 * MAX_SPAWNS) fail(`${block.where} holds more than ${MAX_SPAWNS} monster tiles; place fewer monsters.`);
        if (spawned === spawns.length) { const grown = new Int32Array(2 * spawns.length); grown.set(spawns); spawns = grown; }
        spawns[spawned++] = col; spawns[spawned++] = row; spawns[spawned++] = (meaning >> 8) - 1;
      }
    }
  }

  const objects = readObjects(objectLayers, prepared, options, minX * tileSize, minY * tileSize);
  const result: TiledMap = {
    cols, rows, tileSize, left: minX * tileSize, top: minY * tileSize, cells, monsters: spawns.slice(0, spawned),
    rects: objects.rects, rectInfo: objects.rectInfo, polygons: objects.polygons, polylines: objects.polylines, properties: mapProperties,
  };
  loadedMaps.add(result);
  return result;
}

/** Object layers into rectangles, polygons and polylines at (x - left, y - top): Tiled's y-down pixels from the cells' top-left corner. */
function readObjects(layers: { layer: Json; where: string; ox: number; oy: number }[], prepared: Prepared, options: CheckedOptions, left: number, top: number): Pick<TiledMap, "rects" | "rectInfo" | "polygons" | "polylines"> {
  const rects: number[] = [];
  const rectInfo: TiledObjectInfo[] = [];
  const polygons: TiledPolygon[] = [];
  const polylines: TiledPolyline[] = [];
  let objectCount = 0, points = 0;
  for (const { layer, where, ox, oy } of layers) {
    const list = layer.objects ?? [];
    if (!Array.isArray(list)) fail(`${fieldOf(layer, where, "objects")} must be an array.`);
    for (let k = 0; k < list.length; k++) {
      const given = list[k];
      if (!isObject(given)) fail(`${where}.objects[${k}] must be an object.`);
      const ow = nameOf(given, `${where}.objects[${k}]`);
      if (++objectCount > MAX_OBJECTS) fail(`${ow} is object ${MAX_OBJECTS + 1}; a map may hold ${MAX_OBJECTS}.`);
      // A template's object first, the instance's own fields over it; properties merged by name.
      let o = given, properties = Object.create(null) as Json;
      if (given.template !== undefined) {
        const path = joinPath(options.path, given.template as string);
        const file = prepared.files.get(path);
        const tw = fieldOf(given, ow, "template");
        if (!isObject(file)) fail(`${tw} (${show(path)}) is not a template file.`);
        const fw = nameOf(file, path);
        if (file.type !== undefined && file.type !== "template") fail(`${fw} is a ${show(file.type)} file, not a template.`);
        checkVersion(file, fw);
        const base = file.object;
        if (!isObject(base)) fail(`${fieldOf(file, fw, "object")} must be the template's object.`);
        o = Object.create(null) as Json;
        for (const key of Object.keys(base)) defineOwn(o, key, base[key]);
        for (const key of Object.keys(given)) defineOwn(o, key, given[key]);
        readProperties(base, nameOf(base, `${fw}.object`), properties);
      }
      properties = readProperties(given, ow, properties);
      const info: TiledObjectInfo = {
        id: typeof given.id === "number" ? given.id : k,
        name: typeof o.name === "string" ? o.name : "",
        type: typeof o.type === "string" ? o.type : typeof o.class === "string" ? o.class : "",
        layer: typeof layer.name === "string" ? layer.name : "",
        properties,
      };
      if (o.point || o.ellipse || o.text || o.gid !== undefined) continue; // no shape the stores take (tile objects, even rotated)
      const x = finite(o, "x", ow, 0) + ox, y = finite(o, "y", ow, 0) + oy;
      const rotation = finite(o, "rotation", ow, 0);
      const cos = Math.cos((rotation * Math.PI) / 180), sin = Math.sin((rotation * Math.PI) / 180);
      // Tiled rotates clockwise on its y-down screen about the object's (x, y).
      const put = (v: Float32Array | Float64Array, j: number, px: number, py: number) => {
        v[2 * j] = x + px * cos - py * sin - left;
        v[2 * j + 1] = y + px * sin + py * cos - top;
      };
      if (o.polyline !== undefined) {
        polylines.push({ ...info, points: readPolyline(o, ow, put) });
        points += polylines[polylines.length - 1].points.length / 2;
        if (points > MAX_POINTS) fail(`${fieldOf(o, ow, "polyline")} brings the map's polygon and polyline points over ${MAX_POINTS}; simplify the outlines.`);
        continue;
      }
      let vertices: Float32Array;
      if (o.polygon !== undefined) {
        const pts = o.polygon;
        const pw = fieldOf(o, ow, "polygon");
        if (!Array.isArray(pts)) fail(`${pw} must be an array of {x, y}.`);
        if (pts.length < 3) fail(`${pw} has ${pts.length} points; a polygon needs at least 3.`);
        points += pts.length;
        if (points > MAX_POINTS) fail(`${pw} brings the map's polygon and polyline points over ${MAX_POINTS}; simplify the outlines.`);
        vertices = new Float32Array(2 * pts.length);
        for (let j = 0; j < pts.length; j++) {
          const p = pts[j];
          const jw = isObject(p) ? nameOf(p, `${pw}[${j}]`) : `${pw}[${j}]`;
          if (!isObject(p)) fail(`${jw} must be {x, y}.`);
          put(vertices, j, finite(p, "x", jw), finite(p, "y", jw));
        }
      } else {
        const w = finite(o, "width", ow, 0), h = finite(o, "height", ow, 0);
        if (w < 0 || h < 0) fail(`${ow} has a negative size (${w} x ${h}).`);
        if (rotation === 0 || w === 0 || h === 0) {
          rects.push(x - left, y - top, w, h);
          rectInfo.push(info);
          continue;
        }
        vertices = new Float32Array(8); // a rotated rectangle: its four corners
        put(vertices, 0, 0, 0); put(vertices, 1, w, 0); put(vertices, 2, w, h); put(vertices, 3, 0, h);
      }
      const n = vertices.length / 2;
      let area = 0;
      for (let j = 0; j < n; j++) {
        const a = 2 * j, b = 2 * ((j + 1) % n);
        area += (vertices[a] - vertices[0]) * (vertices[b + 1] - vertices[1]) - (vertices[b] - vertices[0]) * (vertices[a + 1] - vertices[1]);
      }
      if (!(area !== 0)) fail(`${ow} has zero area; remove it or give it a real shape.`);
      if (area > 0) { // clockwise as drawn: reversed
        for (let i = 0, j = n - 1; i < j; i++, j--) {
          const tx = vertices[2 * i], ty = vertices[2 * i + 1];
          vertices[2 * i] = vertices[2 * j]; vertices[2 * i + 1] = vertices[2 * j + 1];
          vertices[2 * j] = tx; vertices[2 * j + 1] = ty;
        }
      }
      polygons.push({ ...info, vertices });
    }
  }
  return { rects: Float32Array.from(rects), rectInfo, polygons, polylines };
}

/**
 * A polyline object's points, placed by `put` (the object's position, rotation and layer offsets),
 * checked before anything is made of them: 2 to MAX_POLYLINE_POINTS points, each a finite number
 * that stays within MAX_COORD once placed. Refusals name the object's field (its JSON path or TMX
 * element), as MALFORMED_MAP.
 */
function readPolyline(o: Json, ow: string, put: (v: Float32Array | Float64Array, j: number, px: number, py: number) => void): Float32Array {
  const pts = o.polyline;
  const pw = fieldOf(o, ow, "polyline");
  if (!Array.isArray(pts)) fail(`${pw} must be an array of {x, y}.`);
  if (pts.length < 2) fail(`${pw} has ${pts.length} point${pts.length === 1 ? "" : "s"}; a polyline needs at least 2.`);
  if (pts.length > MAX_POLYLINE_POINTS) fail(`${pw} has ${pts.length} points; a polyline may have ${MAX_POLYLINE_POINTS}. Split or simplify the line.`);
  const placed = new Float64Array(2);
  const out = new Float32Array(2 * pts.length);
  for (let j = 0; j < pts.length; j++) {
    const p = pts[j];
    const jw = isObject(p) ? nameOf(p, `${pw}[${j}]`) : `${pw}[${j}]`;
    if (!isObject(p)) fail(`${jw} must be {x, y}.`);
    const px = finite(p, "x", jw), py = finite(p, "y", jw);
    put(placed, 0, px, py); // placed in doubles, checked before f32 rounds it
    if (!coordOk(placed[0]) || !coordOk(placed[1])) {
      fail(`${jw} lands at (${placed[0]}, ${placed[1]}), past the largest coordinate ${MAX_COORD}; move the point or the object.`);
    }
    out[2 * j] = placed[0];
    out[2 * j + 1] = placed[1];
  }
  return out;
}

// ---- loading --------------------------------------------------------------------------------

/** Maps built here: handed back as they are when passed again (world.addTileMap({ tiled: await loadTiledMap(...) })). */
const loadedMaps = new WeakSet<object>();

export function checkOptions(options: unknown, method: string): CheckedOptions {
  if (!isObject(options)) throw new HitcoreError("INVALID_OPTION", `${method}: options must be an object, got ${show(options)}.`);
  const { tileLayers, maxCells = MAX_MAP_CELLS, maxFiles = 256, path = "", resolve } = options as TiledOptions;
  if (tileLayers !== undefined && (!Array.isArray(tileLayers) || !tileLayers.every((n) => typeof n === "string"))) {
    throw new HitcoreError("INVALID_OPTION", `${method}: tileLayers must be an array of layer names, got ${show(tileLayers)}.`);
  }
  if (typeof maxCells !== "number" || !Number.isInteger(maxCells) || maxCells < 1 || maxCells > MAX_MAP_CELLS) {
    throw new HitcoreError("INVALID_OPTION", `${method}: maxCells must be an integer in [1, ${MAX_MAP_CELLS}], got ${show(maxCells)}.`);
  }
  if (typeof maxFiles !== "number" || !Number.isInteger(maxFiles) || maxFiles < 0 || maxFiles > 65536) {
    throw new HitcoreError("INVALID_OPTION", `${method}: maxFiles must be an integer in [0, 65536], got ${show(maxFiles)}.`);
  }
  if (typeof path !== "string") throw new HitcoreError("INVALID_OPTION", `${method}: path must be the map's path or URL (a string), got ${show(path)}.`);
  if (resolve !== undefined && typeof resolve !== "function") throw new HitcoreError("INVALID_OPTION", `${method}: resolve must be a function (path) => file, got ${show(resolve)}.`);
  return { tileLayers, maxCells, maxFiles, path, resolve };
}

/** Text of a file given as bytes (UTF-8, a BOM dropped). */
export function textOf(file: Uint8Array | ArrayBuffer): string {
  return new TextDecoder("utf-8").decode(file).replace(/^\uFEFF/, "");
}

/** Parses JSON text (or takes a parsed object); a document only this file reads. */
export function readJson(file: unknown, where: string): Json {
  let doc = file;
  if (file instanceof Uint8Array || file instanceof ArrayBuffer) doc = textOf(file);
  if (typeof doc === "string") {
    if (/^\s*</.test(doc)) fail(`${where} is XML (TMX); load it with loadTiledMap or loadTiledMapSync from "hitcore/tiled", which read TMX.`);
    try {
      doc = JSON.parse(doc);
    } catch (e) {
      fail(`${where} is not valid JSON (${e instanceof Error ? e.message : String(e)}).`);
    }
  }
  if (!isObject(doc)) fail(`${where}: expected a JSON object, got ${show(doc)}.`);
  return doc;
}

/** The resolver's file for a need, its failure a HitcoreError naming the file and who named it. */
export function callResolver(resolve: ((path: string) => unknown) | undefined, need: TiledFileNeed): unknown {
  if (resolve === undefined) {
    fail(`${need.where} names the external file ${show(need.path)}; pass options.resolve, a function from a path to the file (its text or parsed JSON), or embed it (Tiled: Map > Embed Tileset; Detach Template).`, "MISSING_FILE");
  }
  try {
    return resolve(need.path);
  } catch (e) {
    throw new HitcoreError("MISSING_FILE", `Tiled map: ${need.where} names ${show(need.path)}, and the resolver failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Parses a Tiled JSON map (an object or its JSON text) into cells, monster spawns and objects.
 * External tilesets and templates come from `options.resolve` (sync, preloaded files: JSON text or
 * objects). TMX and compressed layer data need loadTiledMap/loadTiledMapSync from "hitcore/tiled".
 * A map it built before is handed back as it is.
 */
export function parseTiledMap(source: unknown, options: TiledOptions = {}): TiledMap {
  if (typeof source === "object" && source !== null && loadedMaps.has(source)) return source as TiledMap;
  const checked = checkOptions(options, "parseTiledMap");
  const doc = readJson(source, "map");
  const needs = tiledNeeds(doc, checked);
  if (needs.blocks.length > 0) {
    const b = needs.blocks[0];
    fail(`${b.where} is ${b.compression}-compressed; load it with loadTiledMap or loadTiledMapSync from "hitcore/tiled" (they decompress), or save the map with uncompressed base64 or CSV layer data.`);
  }
  const files = new Map<string, unknown>();
  for (const need of needs.files) {
    const file = callResolver(checked.resolve, need);
    if (file !== null && typeof file === "object" && typeof (file as { then?: unknown }).then === "function") {
      fail(`the resolver returned a promise for ${show(need.path)}; parseTiledMap is synchronous: preload the files, or use loadTiledMap from "hitcore/tiled".`, "INVALID_OPTION");
    }
    files.set(need.path, readJson(file, need.path));
  }
  return buildTiledMap(doc, { files, inflated: new Map() }, checked);
}
