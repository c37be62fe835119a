// The "hitcore/tiled" entry: Tiled maps as the editor saves them, JSON or TMX, with external
// tilesets and templates fetched through the caller's resolver and compressed layer data inflated.
// A separate entry because it carries three small libraries that the collision core does not
// need (the main entries stay dependency-free and load unbundled):
//   - fflate (gzip and zlib, sync path): 8 kB, tree-shakes to the inflater, no dependencies,
//     the usual pure-JS choice; the async path uses the platform's inflater instead;
//   - fzstd (zstd, both paths): by fflate's author, the one maintained pure-JS zstd decoder;
//     neither browsers' DecompressionStream nor Node 20's zlib reads zstd;
//   - fast-xml-parser (TMX in Node, which has no DOMParser): the most used pure-JS XML parser,
//     iterative, with a nesting limit; browsers use their DOMParser (see `xml` below).
// loadTiledMap is async (the resolver may fetch); loadTiledMapSync takes a sync resolver. Both
// return the same TiledMap as parseTiledMap, and world.addTileMap({ tiled }) takes it as it is.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { gunzipSync, unzlibSync } from "fflate";
import { decompress as zstdDecompress } from "fzstd";
import { decodeBase64 } from "./base64.js";
import {
  buildTiledMap, callResolver, checkOptions, fail, readJson, show, textOf, tiledNeeds,
  type CheckedOptions, type Json, type TiledBlockNeed, type TiledFile, type TiledMap, type TiledOptions,
} from "./tiled.js";
import { domXmlReader, looksLikeXml, MAX_XML_DEPTH, readTmx, type XmlNode, type XmlReader } from "./tmx.js";
import { HitcoreError } from "./validate.js";

export { parseTiledMap } from "./tiled.js";
export type { TiledFile, TiledMap, TiledObjectInfo, TiledOptions, TiledPolygon } from "./tiled.js";

/** Which parser reads TMX: "auto" (DOMParser where the platform has one, else fast-xml-parser), or either by name. */
export type TiledXmlParser = "auto" | "dom" | "fast-xml-parser";

export interface TiledSyncOptions extends TiledOptions {
  xml?: TiledXmlParser;
}

export interface TiledLoadOptions extends Omit<TiledSyncOptions, "resolve"> {
  /** As TiledOptions.resolve, and it may return a promise (fetch). */
  resolve?: (path: string) => TiledFile | Promise<TiledFile>;
}

// ---- XML -----------------------------------------------------------------------------------

const fxp = new XMLParser({
  preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: "", parseAttributeValue: false, parseTagValue: false,
  trimValues: false, processEntities: true, htmlEntities: false, ignoreDeclaration: true, ignorePiTags: true,
  maxNestedTags: MAX_XML_DEPTH + 8,
});

type FxpNode = Record<string, unknown>;

/** fast-xml-parser into XmlNodes: validated first (it names the line of a fault), then walked in preorder with an explicit stack. */
const fastXmlReader: XmlReader = (text, lines, where) => {
  const valid = XMLValidator.validate(text);
  if (valid !== true) fail(`${where} is not well-formed XML (line ${valid.err.line}, column ${valid.err.col}): ${valid.err.msg}`);
  let tree: unknown;
  try {
    tree = fxp.parse(text);
  } catch (e) {
    fail(`${where} could not be read as XML: ${e instanceof Error ? e.message : String(e)}`);
  }
  const nameOf = (raw: FxpNode) => Object.keys(raw).find((k) => k !== ":@" && k !== "#text");
  const rootRaw = (tree as FxpNode[]).find((n) => { const k = nameOf(n); return k !== undefined && !k.startsWith("?") && !k.startsWith("!"); });
  if (rootRaw === undefined) fail(`${where} has no root element.`);
  let order = 0, top: XmlNode | null = null;
  const stack: [FxpNode, XmlNode | null][] = [[rootRaw, null]];
  while (stack.length > 0) {
    const [raw, parent] = stack.pop()!;
    const name = nameOf(raw)!;
    const attrs = new Map<string, string>();
    const given = raw[":@"];
    if (typeof given === "object" && given !== null) {
      for (const k of Object.keys(given)) attrs.set(k, String((given as Record<string, unknown>)[k]));
    }
    const node: XmlNode = { name, attrs, children: [], text: "", line: lines[order++] ?? 0 };
    if (parent === null) top = node; else parent.children.push(node);
    const kids = raw[name];
    if (!Array.isArray(kids)) continue;
    const elements: FxpNode[] = [];
    for (const kid of kids as FxpNode[]) {
      if (Object.hasOwn(kid, "#text")) node.text += String(kid["#text"]);
      else if (nameOf(kid) !== undefined) elements.push(kid);
    }
    for (let k = elements.length - 1; k >= 0; k--) stack.push([elements[k], node]);
  }
  return top!;
};

function xmlReader(choice: TiledXmlParser | undefined): XmlReader {
  if (choice === undefined || choice === "auto") return domXmlReader() ?? fastXmlReader;
  if (choice === "fast-xml-parser") return fastXmlReader;
  if (choice === "dom") {
    const dom = domXmlReader();
    if (dom === null) throw new HitcoreError("INVALID_OPTION", "loadTiledMap: xml is \"dom\", but this platform has no DOMParser (Node has none); use \"auto\" or \"fast-xml-parser\".");
    return dom;
  }
  throw new HitcoreError("INVALID_OPTION", `loadTiledMap: xml must be "auto", "dom" or "fast-xml-parser", got ${show(choice)}.`);
}

/** A map, tileset or template file: TMX/TSX/TX text, JSON text, bytes of either, or parsed JSON. */
function readDocument(file: unknown, where: string, xml: XmlReader): Json {
  const text = typeof file === "string" ? file : file instanceof Uint8Array || file instanceof ArrayBuffer ? textOf(file) : null;
  if (text !== null && looksLikeXml(text)) return readTmx(text, where, xml);
  return readJson(text ?? file, where);
}

// ---- decompression ---------------------------------------------------------------------------

/**
 * zstd into exactly the bytes the block needs: fzstd writes into the buffer it is given (it then
 * allocates no window, however large the frame claims), so a lying frame costs nothing; a frame
 * that states its size must state this one.
 */
function inflateZstd(data: Uint8Array, block: TiledBlockNeed): Uint8Array {
  if (data.length >= 6 && data[0] === 0x28 && data[1] === 0xb5 && data[2] === 0x2f && data[3] === 0xfd) {
    const flags = data[4], single = (flags >> 5) & 1, sizeBytes = flags >> 6 ? 1 << (flags >> 6) : single;
    const at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][flags & 3];
    if (sizeBytes > 0 && at + sizeBytes <= data.length) {
      let size = 0;
      for (let b = Math.min(sizeBytes, 6) - 1; b >= 0; b--) size = size * 256 + data[at + b];
      if (sizeBytes === 2) size += 256;
      if (size !== block.bytes) fail(`${block.where} decompresses to ${size} bytes (its zstd frame says), but its width x height needs ${block.bytes}.`);
    }
  }
  return zstdDecompress(data, new Uint8Array(block.bytes));
}

function inflateSync(block: TiledBlockNeed): Uint8Array {
  const data = decodeBase64(block.text, `Tiled map: ${block.where}`);
  try {
    if (block.compression === "zstd") return inflateZstd(data, block);
    // One byte of room over the need: a fuller buffer means the data inflates to more.
    const out = new Uint8Array(block.bytes + 1);
    const got = block.compression === "gzip" ? gunzipSync(data, { out }) : unzlibSync(data, { out });
    if (got.length > block.bytes) fail(`${block.where} decompresses to more than the ${block.bytes} bytes its width x height needs.`);
    return got;
  } catch (e) {
    if (e instanceof HitcoreError) throw e;
    fail(`${block.where} is not valid ${block.compression} data (${e instanceof Error ? e.message : String(e)}).`);
  }
}

type NodeZlib = {
  gunzip(data: Uint8Array, options: { maxOutputLength: number }, done: (e: Error | null, out: Uint8Array) => void): void;
  inflate(data: Uint8Array, options: { maxOutputLength: number }, done: (e: Error | null, out: Uint8Array) => void): void;
};
let nodeZlib: Promise<NodeZlib | null> | null = null;

/** node:zlib in Node (faster there than its DecompressionStream); null elsewhere. Named through a variable, so bundlers leave it alone. */
function loadNodeZlib(): Promise<NodeZlib | null> {
  const node = typeof process === "object" && process !== null && typeof process.versions?.node === "string";
  const name = "node:zlib";
  nodeZlib ??= node ? import(/* @vite-ignore */ name).then((m: NodeZlib) => m, () => null) : Promise.resolve(null);
  return nodeZlib;
}

/** gzip and zlib through the platform (node:zlib, else DecompressionStream), stopped as soon as the output outgrows the block. */
async function inflateAsync(block: TiledBlockNeed): Promise<Uint8Array> {
  if (block.compression === "zstd") return inflateSync(block);
  const data = decodeBase64(block.text, `Tiled map: ${block.where}`);
  const zlib = await loadNodeZlib();
  if (zlib !== null) {
    return new Promise((done, reject) => {
      const finish = (e: Error | null, out: Uint8Array) => {
        if (e === null) return done(out);
        const tooBig = (e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" || e instanceof RangeError;
        reject(new HitcoreError("MALFORMED_MAP", `Tiled map: ${block.where} ${tooBig ? `decompresses to more than the ${block.bytes} bytes its width x height needs` : `is not valid ${block.compression} data (${e.message})`}.`));
      };
      const options = { maxOutputLength: block.bytes + 1 };
      if (block.compression === "gzip") zlib.gunzip(data, options, finish); else zlib.inflate(data, options, finish);
    });
  }
  if (typeof DecompressionStream !== "function") return inflateSync(block);
  const out = new Uint8Array(block.bytes);
  let n = 0;
  try {
    const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream(block.compression === "gzip" ? "gzip" : "deflate"));
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (n + value.length > block.bytes) {
        await reader.cancel();
        fail(`${block.where} decompresses to more than the ${block.bytes} bytes its width x height needs.`);
      }
      out.set(value, n);
      n += value.length;
    }
  } catch (e) {
    if (e instanceof HitcoreError) throw e;
    fail(`${block.where} is not valid ${block.compression} data (${e instanceof Error ? e.message : String(e)}).`);
  }
  return out.subarray(0, n);
}

// ---- loading ---------------------------------------------------------------------------------

function start(source: unknown, options: unknown, method: string): { checked: CheckedOptions; xml: XmlReader; doc: Json } {
  const checked = checkOptions(options, method);
  const xml = xmlReader((options as TiledSyncOptions).xml);
  return { checked, xml, doc: readDocument(source, checked.path === "" ? "map" : checked.path, xml) };
}

/**
 * Loads a Tiled map (TMX or JSON: text, bytes or a parsed object) with its external tilesets and
 * templates, which `options.resolve` hands over by path, sync or async (fetch), and its
 * compressed layers (gzip and zlib through the platform, zstd through fzstd). Refusals are
 * HitcoreErrors naming the field: its JSON path, or its TMX element and line.
 */
export async function loadTiledMap(source: TiledFile, options: TiledLoadOptions = {}): Promise<TiledMap> {
  const { checked, xml, doc } = start(source, options, "loadTiledMap");
  const needs = tiledNeeds(doc, checked);
  const files = new Map<string, unknown>();
  for (const need of needs.files) {
    let file: unknown;
    try {
      file = await callResolver(checked.resolve, need);
    } catch (e) {
      if (e instanceof HitcoreError) throw e;
      throw new HitcoreError("MISSING_FILE", `Tiled map: ${need.where} names ${show(need.path)}, and the resolver failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    files.set(need.path, readDocument(file, need.path, xml));
  }
  const inflated = new Map<object, Uint8Array>();
  for (const block of needs.blocks) inflated.set(block.owner, await inflateAsync(block));
  return buildTiledMap(doc, { files, inflated }, checked);
}

/** loadTiledMap with a sync resolver (preloaded files): the same map, now; gzip and zlib through fflate. */
export function loadTiledMapSync(source: TiledFile, options: TiledSyncOptions = {}): TiledMap {
  const { checked, xml, doc } = start(source, options, "loadTiledMapSync");
  const needs = tiledNeeds(doc, checked);
  const files = new Map<string, unknown>();
  for (const need of needs.files) {
    const file = callResolver(checked.resolve, need);
    if (file !== null && typeof file === "object" && typeof (file as { then?: unknown }).then === "function") {
      throw new HitcoreError("INVALID_OPTION", `loadTiledMapSync: the resolver returned a promise for ${show(need.path)}; preload the files, or use loadTiledMap.`);
    }
    files.set(need.path, readDocument(file, need.path, xml));
  }
  const inflated = new Map<object, Uint8Array>();
  for (const block of needs.blocks) inflated.set(block.owner, inflateSync(block));
  return buildTiledMap(doc, { files, inflated }, checked);
}
