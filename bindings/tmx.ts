// TMX, Tiled's native XML format (https://doc.mapeditor.org/en/stable/reference/tmx-map-format/):
// maps (.tmx), tilesets (.tsx) and templates (.tx) into the same document the JSON form parses to,
// so tiled.ts reads both; every object made from an element remembers the element and its line
// for messages. The XML itself is parsed by a reader the caller picks: the platform's DOMParser
// (browsers; domXmlReader below) or fast-xml-parser (Node; the hitcore/tiled entry), over one
// linear prescan that gives every start tag its line, bounds the nesting (the parsers and the
// walk below stay shallow) and refuses DOCTYPE internal subsets (entity expansion; Tiled writes
// none). The walk keeps explicit stacks for group layers and class properties.
import { defineOwn, fail, xmlFieldLabels, xmlLabels, type Json } from "./tiled.js";

/** An element: name, attributes (a Map: any name is safe), child elements, text content, line. */
export interface XmlNode {
  name: string;
  attrs: Map<string, string>;
  children: XmlNode[];
  text: string;
  line: number;
}

/**
 * Parses XML text into its root element. `lines[k]` is the line of the k-th start tag in document
 * order: readers number elements in that (pre)order. Malformed XML throws a HitcoreError naming
 * the line where the reader can tell it.
 */
export type XmlReader = (text: string, lines: Int32Array, where: string) => XmlNode;

/** Elements nest at most this deep: libxml2 (Chromium's DOMParser) stops at 256, fast-xml-parser recurses per level. */
export const MAX_XML_DEPTH = 200;

/**
 * One linear pass over the text: the line of every start tag in document order, the nesting depth
 * checked, and DOCTYPE internal subsets (entity declarations) refused. Comments, CDATA and
 * processing instructions are skipped; quoted attribute values may hold '>'.
 */
export function prescanXml(text: string, where: string): Int32Array {
  let lines = new Int32Array(64), count = 0;
  let line = 1, at = 0, depth = 0;
  const advance = (to: number) => {
    for (let i = at; i < to; i++) if (text.charCodeAt(i) === 10) line++;
    at = to;
  };
  const skipPast = (end: string, from: number) => {
    const i = text.indexOf(end, from);
    return i < 0 ? text.length : i + end.length;
  };
  for (;;) {
    const lt = text.indexOf("<", at);
    if (lt < 0) break;
    advance(lt);
    const next = text.charCodeAt(lt + 1);
    if (text.startsWith("<!--", lt)) advance(skipPast("-->", lt + 4));
    else if (text.startsWith("<![CDATA[", lt)) advance(skipPast("]]>", lt + 9));
    else if (next === 63 /* ? */) advance(skipPast("?>", lt + 2));
    else if (next === 33 /* ! */) {
      const end = skipPast(">", lt + 2);
      if (text.slice(lt, end).includes("[")) fail(`${where}: the DOCTYPE at line ${line} declares entities; TMX needs none and they are not read (an internal subset can expand without bound). Remove it.`);
      advance(end);
    } else if (next === 47 /* / */) {
      depth--;
      advance(skipPast(">", lt + 2));
    } else {
      if (count === lines.length) { const grown = new Int32Array(2 * count); grown.set(lines); lines = grown; }
      lines[count++] = line;
      // The tag's end: the first '>' outside quotes.
      let i = lt + 1, quote = 0;
      for (; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (quote !== 0) { if (c === quote) quote = 0; }
        else if (c === 34 || c === 39) quote = c;
        else if (c === 62) break;
      }
      if (text.charCodeAt(i - 1) !== 47 /* / */ && ++depth > MAX_XML_DEPTH) {
        fail(`${where}: elements nest more than ${MAX_XML_DEPTH} deep at line ${line}; a Tiled file nests a few levels per group layer. Flatten the groups.`);
      }
      advance(Math.min(i + 1, text.length));
    }
  }
  return lines.subarray(0, count);
}

/** A reader over the platform's DOMParser (browsers, workers with one), or null where there is none. */
export function domXmlReader(): XmlReader | null {
  const Parser = (globalThis as { DOMParser?: new () => { parseFromString(text: string, type: string): Document } }).DOMParser;
  if (typeof Parser !== "function") return null;
  return (text, lines, where) => {
    const doc = new Parser().parseFromString(text, "application/xml");
    const error = doc.getElementsByTagName("parsererror")[0];
    if (error !== undefined) {
      const message = (error.textContent ?? "").replace(/\s+/g, " ").trim();
      const m = /line (\d+)/i.exec(message);
      fail(`${where} is not well-formed XML${m ? ` (line ${m[1]})` : ""}: ${message.slice(0, 200)}`);
    }
    let order = 0, top: XmlNode | null = null;
    // Preorder with an explicit stack (children pushed in reverse): elements numbered in document order.
    const stack: [Element, XmlNode | null][] = [[doc.documentElement, null]];
    while (stack.length > 0) {
      const [e, parent] = stack.pop()!;
      const attrs = new Map<string, string>();
      for (let a = 0; a < e.attributes.length; a++) attrs.set(e.attributes[a].name, e.attributes[a].value);
      const node: XmlNode = { name: e.tagName, attrs, children: [], text: "", line: lines[order++] ?? 0 };
      if (parent === null) top = node; else parent.children.push(node);
      const kids: Element[] = [];
      for (let c = e.firstChild; c !== null; c = c.nextSibling) {
        if (c.nodeType === 1) kids.push(c as Element);
        else if (c.nodeType === 3 || c.nodeType === 4) node.text += c.nodeValue ?? "";
      }
      for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k], node]);
    }
    return top!;
  };
}

// ---- elements into the document --------------------------------------------------------------

function label(node: XmlNode): string {
  const name = node.attrs.get("name");
  return `<${node.name}${typeof name === "string" ? ` name=${JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}...` : name)}` : ""}> (line ${node.line || "?"})`;
}

const NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** An attribute as a number where it reads as one; otherwise the text, for tiled.ts to refuse with the element named. */
function num(v: string | undefined): unknown {
  return v === undefined ? undefined : NUMBER.test(v) ? Number(v) : v;
}

/**
 * Copies the named attributes that are present, numbers for the numeric ones. The keys are this
 * file's constants, set on prototype-less objects: plain assignment is safe (and much faster than
 * defineProperty); names from the file (properties, class members) go through defineOwn.
 */
function copy(node: XmlNode, into: Json, texts: readonly string[], numbers: readonly string[]): void {
  for (const key of texts) { const v = node.attrs.get(key); if (v !== undefined) into[key] = v; }
  for (const key of numbers) { const v = node.attrs.get(key); if (v !== undefined) into[key] = num(v); }
}

function made(node: XmlNode, fields: Json = Object.create(null) as Json): Json {
  xmlLabels.set(fields, label(node));
  return fields;
}

/** Property value by declared type, from the value attribute or (multi-line strings) the text. */
function propertyValue(node: XmlNode, type: string): unknown {
  const raw = node.attrs.get("value") ?? node.text;
  if (type === "int" || type === "float" || type === "object") return num(raw);
  if (type === "bool") return raw === "true" ? true : raw === "false" ? false : raw;
  return raw;
}

/** <properties> into Tiled's JSON list [{name, type, propertytype, value}]; class members nest through an explicit stack. */
function properties(node: XmlNode): Json[] {
  const list: Json[] = [];
  const stack: [XmlNode, Json | null][] = [[node, null]]; // (a <properties>, the class value to fill or null for the list)
  while (stack.length > 0) {
    const [props, into] = stack.pop()!;
    for (const p of props.children) {
      if (p.name !== "property") continue;
      const type = p.attrs.get("type") ?? "string";
      let value = propertyValue(p, type);
      if (type === "class") {
        const members = Object.create(null) as Json;
        value = members;
        for (const inner of p.children) if (inner.name === "properties") stack.push([inner, members]);
      }
      if (into !== null) {
        const name = p.attrs.get("name");
        if (name !== undefined) defineOwn(into, name, value);
        continue;
      }
      const entry = made(p);
      copy(p, entry, ["name", "propertytype"], []);
      entry.type = type;
      entry.value = value;
      list.push(entry);
    }
  }
  return list;
}

function withProperties(node: XmlNode, into: Json): void {
  for (const child of node.children) if (child.name === "properties") into.properties = properties(child);
}

/** CSV gids, each a number where it reads as one. */
function csv(text: string): unknown[] {
  const trimmed = text.trim();
  return trimmed === "" ? [] : trimmed.split(",").map((v) => num(v));
}

/** A <data> or <chunk>'s tiles into `into.data`: CSV and XML <tile> elements as arrays, base64 as its text. */
function tileData(node: XmlNode, encoding: string | undefined, into: Json): void {
  if (encoding === "csv") into.data = csv(node.text);
  else if (encoding === "base64") into.data = node.text;
  else if (encoding === undefined) into.data = node.children.filter((t) => t.name === "tile").map((t) => num(t.attrs.get("gid") ?? "0"));
  else into.data = node.text; // an unknown encoding: tiled.ts refuses it, naming the element
}

function tileLayer(node: XmlNode): Json {
  const layer = made(node);
  layer.type = "tilelayer";
  copy(node, layer, ["name"], ["id", "width", "height", "offsetx", "offsety", "parallaxx", "parallaxy"]);
  withProperties(node, layer);
  const data = node.children.find((c) => c.name === "data");
  if (data === undefined) return layer;
  const encoding = data.attrs.get("encoding");
  if (encoding !== undefined) layer.encoding = encoding;
  const compression = data.attrs.get("compression");
  if (compression !== undefined) layer.compression = compression;
  const dl = label(data);
  xmlFieldLabels.set(layer, { data: dl, encoding: `${dl} attribute encoding`, compression: `${dl} attribute compression`, chunks: dl });
  const chunks = data.children.filter((c) => c.name === "chunk");
  if (chunks.length > 0) {
    layer.chunks = chunks.map((c) => {
      const chunk = made(c);
      copy(c, chunk, [], ["x", "y", "width", "height"]);
      tileData(c, encoding, chunk);
      xmlFieldLabels.set(chunk, { data: label(c) });
      return chunk;
    });
  } else tileData(data, encoding, layer);
  return layer;
}

function tmxObject(node: XmlNode): Json {
  const o = made(node);
  copy(node, o, ["name", "type", "class", "template"], ["id", "x", "y", "width", "height", "rotation", "gid"]);
  withProperties(node, o);
  for (const child of node.children) {
    if (child.name === "ellipse" || child.name === "point") o[child.name] = true;
    else if (child.name === "text") o.text = child.text;
    else if (child.name === "polygon" || child.name === "polyline") {
      const pl = label(child);
      const raw = (child.attrs.get("points") ?? "").trim();
      const pts = raw === "" ? [] : raw.split(/\s+/).map((pair, j) => {
        const comma = pair.indexOf(",");
        const p = Object.create(null) as Json;
        p.x = num(comma < 0 ? pair : pair.slice(0, comma));
        p.y = num(comma < 0 ? undefined : pair.slice(comma + 1));
        xmlLabels.set(p, `${pl} point ${j}`);
        return p;
      });
      o[child.name] = pts;
      xmlFieldLabels.set(o, { ...xmlFieldLabels.get(o), [child.name]: pl });
    }
  }
  return o;
}

function tileset(node: XmlNode): Json {
  const set = made(node);
  const source = node.attrs.get("source");
  if (source !== undefined) set.source = source;
  copy(node, set, ["name", "version", "tiledversion"], ["firstgid", "tilewidth", "tileheight", "tilecount", "columns"]);
  withProperties(node, set);
  const tiles: Json[] = [];
  for (const child of node.children) {
    if (child.name !== "tile") continue;
    const tile = made(child);
    copy(child, tile, ["type", "class"], ["id"]);
    withProperties(child, tile);
    tiles.push(tile);
  }
  if (tiles.length > 0) set.tiles = tiles;
  return set;
}

/** The layers among `node`'s children (group layers through an explicit stack), appended to `into`. */
function layers(node: XmlNode, into: Json[]): void {
  const stack: [XmlNode, Json[]][] = [[node, into]];
  while (stack.length > 0) {
    const [parent, out] = stack.pop()!;
    for (const child of parent.children) {
      if (child.name === "layer") out.push(tileLayer(child));
      else if (child.name === "objectgroup") {
        const group = made(child);
        group.type = "objectgroup";
        copy(child, group, ["name"], ["id", "offsetx", "offsety", "parallaxx", "parallaxy"]);
        withProperties(child, group);
        group.objects = child.children.filter((c) => c.name === "object").map(tmxObject);
        out.push(group);
      } else if (child.name === "imagelayer") {
        const image = made(child);
        image.type = "imagelayer";
        copy(child, image, ["name"], ["id", "offsetx", "offsety"]);
        out.push(image);
      } else if (child.name === "group") {
        const group = made(child);
        group.type = "group";
        copy(child, group, ["name"], ["id", "offsetx", "offsety", "parallaxx", "parallaxy"]);
        withProperties(child, group);
        const inner: Json[] = [];
        group.layers = inner;
        out.push(group);
        stack.push([child, inner]);
      }
    }
  }
}

/** A TMX, TSX or TX document (its text) as the JSON form of the same file, parsed by `reader`. */
export function readTmx(text: string, where: string, reader: XmlReader): Json {
  const lines = prescanXml(text, where);
  const root = reader(text, lines, where);
  if (root.name === "map") {
    const map = made(root);
    map.type = "map";
    copy(root, map, ["version", "tiledversion", "orientation", "renderorder"], ["width", "height", "tilewidth", "tileheight", "hexsidelength"]);
    const infinite = root.attrs.get("infinite");
    if (infinite !== undefined) map.infinite = infinite === "1" || infinite === "true";
    withProperties(root, map);
    map.tilesets = root.children.filter((c) => c.name === "tileset").map(tileset);
    const list: Json[] = [];
    layers(root, list);
    map.layers = list;
    return map;
  }
  if (root.name === "tileset") {
    const set = tileset(root);
    set.type = "tileset";
    return set;
  }
  if (root.name === "template") {
    const template = made(root);
    template.type = "template";
    const object = root.children.find((c) => c.name === "object");
    if (object !== undefined) template.object = tmxObject(object);
    const set = root.children.find((c) => c.name === "tileset");
    if (set !== undefined) template.tileset = tileset(set);
    return template;
  }
  fail(`${where}: the root element ${label(root)} is not a Tiled map, tileset or template (<map>, <tileset> or <template>).`);
}

/** Is this text XML (its first character, past a BOM and white space, a '<')? */
export function looksLikeXml(text: string): boolean {
  return /^\uFEFF?\s*</.test(text);
}
