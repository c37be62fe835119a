// Handles (bindings/ids.ts): every handle a world or one of its parts gives out carries the world's
// tag, its kind and a generation. Another world's handle, a stale one (removed or cleared, its slot
// reused), another kind's, or a non-integer is refused with UNKNOWN_ID by every method that takes
// one, and the world is left as it was; indexOf and idAt go between handles and the slots that views
// and hits give; snapshots keep the generations.
import { describe, expect, it } from "vitest";
import { IdKind, NULL_ID, Part, type World } from "../bindings/node.js";
import { BACKENDS, newWorld, refusal } from "./support.js";

/** The same level in any world: so two worlds' handles differ by their tag alone. */
function build(world: World) {
  const level = world.addRectLevel();
  const prefab = level.addPrefab([0, 0, 40, 10]);
  const instance = level.addInstance(prefab, 100, 200);
  const character = level.addCharacter(0, 0, 20, 40);
  const plat = world.addPlatforms();
  const [surface] = plat.addSurfaces([0, 300, 200, 300]);
  const [polyhedron] = plat.addPolygon([300, 0, 340, 0, 340, 40, 300, 40]);
  const ball = plat.addBall(50, 50);
  const map = world.addTileMap({ cols: 32, rows: 32, tileSize: 16 });
  const controller = map.addController(40, 64);
  const monster = map.addMonster(20, 20, 8, 8);
  const body = world.addCircle(5, 5, 2);
  return { level, plat, map, handles: { body, prefab, instance, character, surface, polyhedron, ball, controller, monster } };
}
type Built = ReturnType<typeof build>;
type Name = keyof Built["handles"];

/** Every method that takes a handle of each kind, called with `h`. */
function callsWith(w: World, b: Built): Record<Name, [string, (h: number) => unknown][]> {
  const { level, plat, map } = b, out = new Float64Array(4);
  return {
    body: [["setPosition", (h) => w.setPosition(h, 1, 1)], ["indexOf", (h) => w.indexOf(h)], ["remove", (h) => w.remove(h)]],
    prefab: [["prefabRectCount", (h) => level.prefabRectCount(h)], ["addInstance", (h) => level.addInstance(h, 0, 0)], ["indexOf", (h) => level.indexOf(h)]],
    instance: [["instanceBox", (h) => level.instanceBox(h, out)], ["instanceRectCount", (h) => level.instanceRectCount(h)],
      ["worldRect", (h) => level.worldRect(h, 0, out)], ["indexOf", (h) => level.indexOf(h)]],
    character: [["placeCharacter", (h) => level.placeCharacter(h, 9, 9)], ["removeCharacter", (h) => level.removeCharacter(h)], ["indexOf", (h) => level.indexOf(h)]],
    surface: [["surface", (h) => plat.surface(h)], ["indexOf", (h) => plat.indexOf(h)]],
    polyhedron: [["halfspaces", (h) => plat.halfspaces(h)], ["vertices", (h) => plat.vertices(h)], ["extent", (h) => plat.extent(h)], ["indexOf", (h) => plat.indexOf(h)]],
    ball: [["setBall", (h) => plat.setBall(h, 1, 1, 0, 0)], ["setAcceleration", (h) => plat.setAcceleration(h, 1, 1)], ["indexOf", (h) => plat.indexOf(h)]],
    controller: [["setInput", (h) => map.setInput(h, 1)], ["controller", (h) => map.controller(h)], ["controllerX", (h) => map.controllerX(h)],
      ["controllerY", (h) => map.controllerY(h)], ["controllerScore", (h) => map.controllerScore(h)], ["controllerEvents", (h) => map.controllerEvents(h)],
      ["setControllerPosition", (h) => map.setControllerPosition(h, 8, 8)], ["indexOf", (h) => map.indexOf(h)]],
    monster: [["moveMonster", (h) => map.moveMonster(h, 30, 30)], ["removeMonster", (h) => map.removeMonster(h)], ["indexOf", (h) => map.indexOf(h)]],
  };
}

/** Asserts `run` throws UNKNOWN_ID (its message matching `why`) and leaves the world's bytes as they were. */
function refused(world: World, run: () => unknown, why: RegExp, label: string): void {
  const before = world.snapshot();
  const e = refusal(run);
  expect(e.code, label).toBe("UNKNOWN_ID");
  expect(e.message, label).toMatch(why);
  expect(Buffer.from(world.snapshot()).equals(Buffer.from(before)), `${label}: the world changed`).toBe(true);
}

describe.each(BACKENDS)("handles (%s)", (backend) => {
  it("refuses another world's handle of every kind in every method that takes one, with the world unchanged", async () => {
    const a = await newWorld(backend), b = await newWorld(backend);
    const ba = build(a), bb = build(b);
    const calls = callsWith(a, ba);
    for (const name of Object.keys(calls) as Name[]) {
      const mine = ba.handles[name], theirs = bb.handles[name];
      expect(theirs, name).not.toBe(mine);
      for (const [method, call] of calls[name]) {
        refused(a, () => call(theirs), /belongs to another world/, `${name} ${method}`);
        refused(a, () => call(1.5), /not an id/, `${name} ${method} 1.5`);
        refused(a, () => call(-1), /not an id/, `${name} ${method} -1`);
        refused(a, () => call(NaN), /not an id/, `${name} ${method} NaN`);
      }
    }
    // b's handles all still work in b.
    expect(bb.plat.indexOf(bb.handles.ball)).toBe(0);
    expect(bb.level.indexOf(bb.handles.character)).toBe(0);
    expect(bb.map.controllerX(bb.handles.controller)).toBe(40);
  });

  it("refuses a handle of another kind, even one that names the same slot", async () => {
    const w = await newWorld(backend);
    const built = build(w), calls = callsWith(w, built);
    // Every handle above is slot 0 of its kind: each is refused where another kind is expected.
    for (const name of Object.keys(calls) as Name[]) {
      for (const other of Object.keys(calls) as Name[]) {
        if (other === name) continue;
        // A part's indexOf takes every kind of handle the part gives out.
        for (const [method, call] of calls[name].filter(([m]) => m !== "indexOf" || !sharesPart(name, other))) {
          refused(w, () => call(built.handles[other]), /names an? \w+, not/, `${other} given to ${name} ${method}`);
        }
      }
    }
  });

  it("idAt and indexOf go between handles and the slots views and hits give, for every kind", async () => {
    const w = await newWorld(backend);
    const { level, plat, map, handles: h } = build(w);
    const second = { instance: level.addInstance(h.prefab, 300, 300), surface: plat.addSurface(0, 400, 100, 400), ball: plat.addBall(60, 60), controller: map.addController(80, 64) };
    const parts = [
      [level, IdKind.Prefab, h.prefab, 0], [level, IdKind.Instance, h.instance, 0], [level, IdKind.Instance, second.instance, 1],
      [level, IdKind.Character, h.character, 0], [plat, IdKind.Surface, h.surface, 0], [plat, IdKind.Surface, second.surface, 1],
      [plat, IdKind.Polyhedron, h.polyhedron, 0], [plat, IdKind.Ball, h.ball, 0], [plat, IdKind.Ball, second.ball, 1],
      [map, IdKind.Controller, h.controller, 0], [map, IdKind.Controller, second.controller, 1], [map, IdKind.Monster, h.monster, 0],
    ] as const;
    for (const [part, kind, handle, slot] of parts) {
      expect(part.indexOf(handle), `kind ${kind}`).toBe(slot);
      expect(part.idAt(kind, slot), `kind ${kind}`).toBe(handle);
      expect(part.has(handle)).toBe(true);
      expect(part.idAt(kind, 99)).toBe(NULL_ID);
      expect(part.idAt(kind, -1)).toBe(NULL_ID);
      expect(part.idAt(kind, 0.5)).toBe(NULL_ID);
    }
    expect(refusal(() => level.idAt(IdKind.Ball, 0)).code).toBe("INVALID_KIND");
    expect(refusal(() => plat.idAt(IdKind.Instance, 0)).code).toBe("INVALID_KIND");
    expect(refusal(() => map.idAt(IdKind.Surface, 0)).code).toBe("INVALID_KIND");
    expect([w.indexOf(h.body), w.idAt(w.indexOf(h.body))]).toEqual([0, h.body]);
    // From a hit to a handle: a cast down onto the second instance, then onto the surface.
    expect(level.castSegment(310, 250, 0, 100)).toBe(true);
    expect([level.hit.part, level.idAt(IdKind.Instance, level.hit.shape)]).toEqual([Part.Rects, second.instance]);
    expect(w.castSegment(150, 250, 0, 100)).toBe(true);
    expect([w.hit.part, plat.idAt(IdKind.Surface, w.hit.shape)]).toEqual([Part.Surfaces, h.surface]);
  });

  it("refuses a stale handle once its slot is reused: characters, monsters, surfaces and polyhedra (clearLevel), balls (clearBalls)", async () => {
    const w = await newWorld(backend);
    const { level, plat, map, handles: h } = build(w);
    const calls = callsWith(w, { level, plat, map, handles: h });
    level.removeCharacter(h.character);
    const character = level.addCharacter(5, 5, 20, 40);
    map.removeMonster(h.monster);
    const monster = map.addMonster(40, 40, 8, 8);
    plat.clearLevel();
    const [surface] = plat.addSurfaces([0, 300, 200, 300]);
    const [polyhedron] = plat.addPolygon([300, 0, 340, 0, 340, 40, 300, 40]);
    plat.clearBalls();
    const ball = plat.addBall(50, 50);
    const fresh = { character, monster, surface, polyhedron, ball };
    for (const name of Object.keys(fresh) as (keyof typeof fresh)[]) {
      const part = name === "character" ? level : name === "monster" ? map : plat;
      expect(part.indexOf(fresh[name]), name).toBe(0); // the same slot, under a new handle
      expect(fresh[name], name).not.toBe(h[name]);
      expect(part.has(h[name]), name).toBe(false);
      for (const [method, call] of calls[name]) refused(w, () => call(h[name]), /was removed|was cleared/, `${name} ${method}`);
    }
    expect(level.idAt(IdKind.Character, 0)).toBe(character);
    expect(map.isMonster(h.monster)).toBe(false);
    // A removed character's or monster's handle, before its slot is reused.
    level.removeCharacter(character);
    expect(level.idAt(IdKind.Character, 0)).toBe(NULL_ID);
    refused(w, () => level.placeCharacter(character, 0, 0), /was removed/, "removed character");
    map.removeMonster(monster);
    expect(map.idAt(IdKind.Monster, 0)).toBe(NULL_ID);
    refused(w, () => map.moveMonster(monster, 30, 30), /was removed/, "removed monster");
  });
});

function sharesPart(a: string, b: string): boolean {
  const part = (n: string) => ["prefab", "instance", "character"].includes(n) ? 1 : ["surface", "polyhedron", "ball"].includes(n) ? 2 : ["controller", "monster"].includes(n) ? 3 : 0;
  return part(a) === part(b);
}

describe("handles in snapshots", () => {
  it("keep their generations: a restore brings back the handles of its time, and another world restored from it answers to them", async () => {
    const a = await newWorld("js");
    const { level, plat, map, handles: h } = build(a);
    const saved = a.snapshot();
    level.removeCharacter(h.character);
    map.removeMonster(h.monster);
    plat.clearLevel();
    plat.clearBalls();
    const character = level.addCharacter(5, 5, 20, 40), monster = map.addMonster(40, 40, 8, 8), ball = plat.addBall(1, 1);
    const later = a.snapshot();
    a.restore(saved);
    for (const [part, handle] of [[level, h.character], [map, h.monster], [plat, h.surface], [plat, h.polyhedron], [plat, h.ball]] as const) {
      expect(part.has(handle)).toBe(true);
    }
    for (const [part, handle] of [[level, character], [map, monster], [plat, ball]] as const) expect(part.has(handle)).toBe(false);
    expect(plat.surface(h.surface)[12]).toBe(300);

    const b = await newWorld("wasm-scalar");
    const other = build(b);
    b.restore(later);
    // b now answers to a's handles of the later snapshot, and refuses its own and a's stale ones.
    expect(other.level.indexOf(character)).toBe(0);
    expect(other.map.indexOf(monster)).toBe(0);
    expect(other.plat.indexOf(ball)).toBe(0);
    expect(other.level.has(h.character)).toBe(false);
    expect(other.plat.has(h.surface)).toBe(false);
    expect(other.level.has(other.handles.character)).toBe(false);
    expect(refusal(() => other.level.placeCharacter(other.handles.character, 0, 0)).message).toMatch(/another world/);
    expect(other.level.has(h.prefab)).toBe(true);
  });
});
