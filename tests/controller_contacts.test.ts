// world.controllerContacts (assembly/contacts.ts): every controller (balls, four-sensor characters,
// tile controllers) against the live bodies of a group mask, one record per (controller, body):
// kind, index, slot, type. Differential: the three cores and a plain reference (every controller
// against every body, with the open overlap and the stomp / hurt / pick-up rule the docs give,
// the "before the last step" values taken by the test itself before each step) agree record for
// record on seeded scenes, with bodies touching controllers exactly, large bodies and invalid
// controllers left out. Then the classification on hand-made scenes, growth, snapshots and refusals.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../fixtures/random.js";
import { ContactType, ControllerKind, IdKind, Input, Kind, TileCell, type World } from "../bindings/node.js";
import { BACKENDS, gc, leastHeapPerCall, newWorld, refusal, type BackendName } from "./support.js";

const f32 = Math.fround;
const T = 16, CW = 12, CH = 24; // tile size, tile controller box
const PLAYER = 1, ENEMY = 2, COIN = 4, SHOT = 8;

/** What each controller was before the last step: y and vy (a tile controller's bottom is its y). */
interface Before { balls: number[][]; chars: number[][]; tiles: number[][] }

function before(world: World): Before {
  const p = world.platforms!, rl = world.rectLevel!, tm = world.tileMap!;
  const balls: number[][] = [], chars: number[][] = [], tiles: number[][] = [];
  for (let i = 0; i < p.ballCount; i++) balls.push([p.y[i], p.vy[i]]);
  for (let c = 0; c < rl.charKind.length; c++) chars.push([rl.charY[c], rl.charVY[c]]);
  for (let i = 0; i < tm.controllerCount; i++) { const s = tm.controller(tm.idAt(IdKind.Controller, i)); tiles.push([s.y, s.dy]); }
  return { balls, chars, tiles };
}

/** Every record the docs promise, by brute force: kind, index, slot, type, in kind, index, slot order. */
function reference(world: World, prev: Before, mask: number, pickUp: number): number[] {
  const out: number[] = [];
  const xs = world.x, ys = world.y, as = world.a, bs = world.b, groups = world.groups, kinds = world.kinds;
  const bodies: number[] = [];
  for (let s = 0; s < kinds.length - 1; s++) if (kinds[s] !== Kind.None && (groups[s] & mask) !== 0) bodies.push(s);
  const classify = (s: number, prevBottom: number, prevVy: number): number => {
    if ((groups[s] & pickUp) !== 0) return ContactType.PickUp;
    const top = kinds[s] === Kind.Circle ? ys[s] - as[s] : ys[s];
    return prevVy > 0 && prevBottom <= top ? ContactType.Stomp : ContactType.Hurt;
  };
  const circleHits = (s: number, cx: number, cy: number, r: number): boolean => {
    const x = xs[s], y = ys[s], a = as[s], b = bs[s];
    if (kinds[s] === Kind.Point) return (x - cx) * (x - cx) + (y - cy) * (y - cy) < r * r;
    if (kinds[s] === Kind.Circle) { const dx = x - cx, dy = y - cy, t = r + a; return dx * dx + dy * dy < t * t; }
    const dx = cx - Math.min(Math.max(cx, x), x + a), dy = cy - Math.min(Math.max(cy, y), y + b);
    return dx * dx + dy * dy < r * r;
  };
  const boxHits = (s: number, x0: number, y0: number, x1: number, y1: number): boolean => {
    const x = xs[s], y = ys[s], a = as[s], b = bs[s];
    const inside = x > x0 && x < x1 && y > y0 && y < y1;
    if (kinds[s] === Kind.Point) return inside;
    if (kinds[s] === Kind.Circle) {
      const dx = x - Math.min(Math.max(x, x0), x1), dy = y - Math.min(Math.max(y, y0), y1);
      return inside || dx * dx + dy * dy < a * a;
    }
    return x0 < x + a && x < x1 && y0 < y + b && y < y1;
  };
  const p = world.platforms!, rl = world.rectLevel!, tm = world.tileMap!;
  for (let i = 0; i < p.ballCount; i++) {
    const cx = p.x[i], cy = p.y[i], r = p.radius[i];
    for (const s of bodies) if (circleHits(s, cx, cy, r)) out.push(ControllerKind.Ball, i, s, classify(s, prev.balls[i][0] + r, prev.balls[i][1]));
  }
  for (let c = 0; c < rl.charKind.length; c++) {
    if (rl.charKind[c] === 0) continue;
    const x = rl.charX[c], y = rl.charY[c], w = rl.charW[c], h = rl.charH[c];
    for (const s of bodies) if (boxHits(s, x, y, x + w, y + h)) out.push(ControllerKind.Character, c, s, classify(s, prev.chars[c][0] + h, prev.chars[c][1]));
  }
  for (let i = 0; i < tm.controllerCount; i++) {
    const { x, y } = tm.controller(tm.idAt(IdKind.Controller, i)), hw = CW * 0.5;
    for (const s of bodies) if (boxHits(s, x - hw, y - CH, x + hw, y)) out.push(ControllerKind.TileController, i, s, classify(s, prev.tiles[i][0], prev.tiles[i][1]));
  }
  return out;
}

function records(world: World, n: number): number[] {
  return [...world.contacts.subarray(0, 4 * n)];
}

/** A level of every part: a tile floor with ledges, a rect floor, and the platforms holding the balls. */
async function levelWorld(backend: BackendName, options = {}): Promise<World> {
  const world = await newWorld(backend, options);
  const tm = world.addTileMap({ cols: 40, rows: 30, tileSize: T, solidFloor: true, controller: { width: CW, height: CH } });
  for (let c = 0; c < 40; c++) if (c % 7 !== 3) tm.setCell(c, 20, TileCell.Platform);
  const rl = world.addRectLevel();
  rl.addInstance(rl.addPrefab([0, 0, 640, 16]), 0, 400);
  world.addPlatforms({ maxRadius: 16 });
  return world;
}

/** Seeded bodies of every kind and group, some large, some touching the controllers' boxes exactly. */
function scatter(world: World, seed: number, count: number): void {
  const rnd = mulberry32(seed), int = (n: number) => Math.floor(rnd() * n);
  for (let k = 0; k < count; k++) {
    const groups = 1 << int(4), x = int(640), y = int(480), kind = k % 3;
    if (kind === 0) world.addPoint(x, y, groups);
    else if (kind === 1) world.addCircle(x, y, 1 + int(k % 17 === 0 ? 120 : 12), groups);
    else world.addRect(x, y, 1 + int(k % 13 === 0 ? 300 : 20), 1 + int(k % 11 === 0 ? 200 : 20), groups);
  }
}

/** Bodies flush against each controller's box: touching its sides, its top and its bottom (no contact), and one corner overlapping. */
function flush(world: World): void {
  const p = world.platforms!, rl = world.rectLevel!, tm = world.tileMap!;
  const around = (x0: number, y0: number, x1: number, y1: number) => {
    world.addRect(x1, y0, 5, 5, ENEMY); // right side
    world.addRect(x0 - 5, y0, 5, 5, COIN); // left side
    world.addRect(x0, y1, 5, 5, ENEMY); // under the bottom
    world.addRect(x0, y0 - 5, 5, 5, ENEMY); // on top
    world.addPoint(x0, (y0 + y1) / 2, ENEMY); // on the left edge
    world.addCircle(x1 + 2, y1 + 2, 3, ENEMY); // reaching past the corner
  };
  for (let i = 0; i < p.ballCount; i++) {
    const r = p.radius[i];
    around(p.x[i] - r, p.y[i] - r, p.x[i] + r, p.y[i] + r);
    world.addCircle(p.x[i] + r + 2, p.y[i], 2, ENEMY); // circles touching
  }
  for (let c = 0; c < rl.charKind.length; c++) {
    if (rl.charKind[c] !== 0) around(rl.charX[c], rl.charY[c], rl.charX[c] + rl.charW[c], rl.charY[c] + rl.charH[c]);
  }
  for (let i = 0; i < tm.controllerCount; i++) {
    const { x, y } = tm.controller(tm.idAt(IdKind.Controller, i));
    around(f32(x - CW / 2), f32(y - CH), f32(x + CW / 2), f32(y));
  }
}

describe("controllerContacts", () => {
  it("agrees with the reference record for record on seeded scenes, on every core", async () => {
    for (let seed = 1; seed <= 5; seed++) {
      const worlds = await Promise.all(BACKENDS.map((b) => levelWorld(b, { capacity: 64 })));
      let checked = 0;
      const types = new Set<number>();
      for (const world of worlds) {
        const rnd = mulberry32(100 + seed), int = (n: number) => Math.floor(rnd() * n);
        const p = world.platforms!, rl = world.rectLevel!, tm = world.tileMap!;
        for (let k = 0; k < 30; k++) p.addBall(int(640), int(300), 2 + int(12), int(400) - 200, int(400) - 300);
        const chars: number[] = [];
        for (let k = 0; k < 12; k++) chars.push(rl.addCharacter(int(600), int(300), 16, 40, k % 3 === 0 ? 2 : 1));
        rl.removeCharacter(chars[5]); // a free slot is no controller
        for (let k = 0; k < 12; k++) tm.addController(int(600) + 8, int(300));
        scatter(world, seed, 400);
      }
      for (let frame = 0; frame < 24; frame++) {
        const answers: number[][] = [];
        for (const world of worlds) {
          const rl = world.rectLevel!, tm = world.tileMap!;
          for (let c = 0; c < rl.charKind.length; c++) rl.charInput[c] = frame % 8 < 4 ? Input.Right : Input.Left | Input.Jump;
          for (let i = 0; i < tm.controllerCount; i++) tm.setInput(tm.idAt(IdKind.Controller, i), frame % 6 < 3 ? Input.Left : Input.Right);
          const prev = before(world);
          world.platforms!.step(1 / 60);
          rl.stepCharacters();
          tm.stepControllers(1 / 60);
          if (frame === 12) flush(world);
          for (const [mask, pickUp] of [[ENEMY | COIN, COIN], [0xffffffff, SHOT], [PLAYER, 0]]) {
            const n = world.controllerContacts(mask, pickUp);
            const want = reference(world, prev, mask, pickUp);
            expect(records(world, n)).toEqual(want);
            answers.push(want);
            checked += n;
            for (let k = 0; k < n; k++) types.add(world.contacts[4 * k + 3]);
          }
        }
        // The cores agree with each other too (each was checked against its own reference).
        const third = answers.length / worlds.length;
        for (let w = 1; w < worlds.length; w++) expect(answers.slice(w * third, (w + 1) * third)).toEqual(answers.slice(0, third));
      }
      expect(checked).toBeGreaterThan(1000);
      expect([...types].sort()).toEqual([ContactType.Stomp, ContactType.Hurt, ContactType.PickUp]);
    }
  });

  for (const backend of BACKENDS) {
    describe(backend, () => {
      it("a ball falling onto a body stomps it, one meeting it from below or beside is hurt, a pick-up is picked up", async () => {
        const world = await levelWorld(backend);
        const p = world.platforms!;
        // Each ball moves 10 down (or up) in one step; r = 5.
        const stomp = p.indexOf(p.addBall(50, 100, 5, 0, 600, 0, 0)); // bottom 105 before the step
        const enemy = world.addRect(40, 105, 20, 10, ENEMY); // its top at the ball's bottom: a stomp
        const side = p.indexOf(p.addBall(150, 100, 5, 0, 600, 0, 0));
        const wall = world.addRect(140, 104, 20, 10, ENEMY); // top 104, above the bottom 105: hurt
        const up = p.indexOf(p.addBall(250, 100, 5, 0, -600, 0, 0));
        const above = world.addRect(240, 80, 20, 10, ENEMY); // met from below: hurt
        const coin = p.indexOf(p.addBall(350, 100, 5, 0, 600, 0, 0));
        const gem = world.addCircle(350, 112, 2, COIN); // falling onto it, but a pick-up
        p.step(1 / 60);
        const n = world.controllerContacts(ENEMY | COIN, COIN);
        const slot = (id: number) => world.indexOf(id);
        expect(records(world, n)).toEqual([
          ControllerKind.Ball, stomp, slot(enemy), ContactType.Stomp,
          ControllerKind.Ball, side, slot(wall), ContactType.Hurt,
          ControllerKind.Ball, up, slot(above), ContactType.Hurt,
          ControllerKind.Ball, coin, slot(gem), ContactType.PickUp,
        ]);
      });

      it("a character or a tile controller falling onto an enemy stomps it; walking into one is hurt", async () => {
        const world = await levelWorld(backend);
        const rl = world.rectLevel!, tm = world.tileMap!;
        // A character falls from just under the tile row (its bottom 336) onto the rect floor at 400, over an enemy standing on it.
        const falling = rl.indexOf(rl.addCharacter(100, 337, 16, 40));
        const enemyA = world.addRect(98, 380, 20, 20, ENEMY);
        // A character on the floor walks right into an enemy standing beside it.
        const walker = rl.indexOf(rl.addCharacter(200, 360, 16, 40));
        const enemyB = world.addRect(230, 380, 20, 20, ENEMY);
        // A tile controller falls from 150 onto the tiles at row 20 (y 320), over an enemy there.
        const dropper = tm.indexOf(tm.addController(5 * T + 8, 150));
        const enemyC = world.addRect(5 * T, 300, 16, 20, ENEMY);
        const seen = new Map<string, number>();
        for (let frame = 0; frame < 120; frame++) {
          rl.charInput[walker] = Input.Right;
          world.platforms!.step(1 / 60);
          rl.stepCharacters();
          tm.stepControllers(1 / 60);
          const n = world.controllerContacts(ENEMY);
          for (let k = 0; k < n; k++) {
            const [kind, index, slot, type] = world.contacts.subarray(4 * k, 4 * k + 4);
            const key = `${kind}:${index}:${slot}`;
            if (!seen.has(key)) seen.set(key, type); // the first contact decides
          }
        }
        const slot = (id: number) => world.indexOf(id);
        expect(seen.get(`${ControllerKind.Character}:${falling}:${slot(enemyA)}`)).toBe(ContactType.Stomp);
        expect(seen.get(`${ControllerKind.Character}:${walker}:${slot(enemyB)}`)).toBe(ContactType.Hurt);
        expect(seen.get(`${ControllerKind.TileController}:${dropper}:${slot(enemyC)}`)).toBe(ContactType.Stomp);
      });

      it("touching is no contact; a placed controller has not fallen", async () => {
        const world = await levelWorld(backend);
        const rl = world.rectLevel!;
        const c = rl.indexOf(rl.addCharacter(100, 100, 16, 40));
        world.addRect(116, 100, 10, 10, ENEMY); // touching its right side
        world.addRect(100, 140, 16, 10, ENEMY); // under its feet, touching
        world.addPoint(100, 120, ENEMY); // on its left edge
        expect(world.controllerContacts(ENEMY)).toBe(0);
        const inside = world.addRect(110, 130, 10, 30, ENEMY);
        expect(world.controllerContacts(ENEMY)).toBe(1);
        // Never stepped: not falling, so a hurt whatever the geometry.
        expect(records(world, 1)).toEqual([ControllerKind.Character, c, world.indexOf(inside), ContactType.Hurt]);
      });

      it("grows its records past any count, views refreshed, and builds the grid probe queries then use", async () => {
        const world = await levelWorld(backend);
        const p = world.platforms!;
        for (let k = 0; k < 50; k++) p.addBall(300, 200, 16);
        for (let k = 0; k < 40; k++) world.addCircle(300 + k * 0.1, 200, 4, ENEMY);
        const before = world.contacts;
        const n = world.controllerContacts(ENEMY);
        expect(n).toBe(2000);
        expect(world.contacts).not.toBe(before);
        expect(world.contacts.length).toBeGreaterThanOrEqual(4 * 2000);
        const got = records(world, n);
        for (let k = 0; k < n; k++) expect(got.slice(4 * k, 4 * k + 4)).toEqual([ControllerKind.Ball, Math.floor(k / 40), 0 + (k % 40), ContactType.Hurt]);
        expect(world.queryCircle(300, 200, 1, ENEMY)).toBe(40);
        expect(world.stats().selected).toBe(40); // the grid over the mask: the query used it
      });

      it("a restored snapshot gives the same contacts", async () => {
        const a = await levelWorld(backend);
        const rnd = mulberry32(9);
        for (let k = 0; k < 20; k++) a.platforms!.addBall(rnd() * 600, rnd() * 300, 8, 0, 300);
        for (let k = 0; k < 10; k++) a.rectLevel!.addCharacter(rnd() * 600, rnd() * 300, 16, 40);
        scatter(a, 4, 600);
        a.platforms!.step(1 / 60);
        a.rectLevel!.stepCharacters();
        const n = a.controllerContacts(ENEMY | COIN, COIN);
        expect(n).toBeGreaterThan(0);
        const want = records(a, n);
        const b = await levelWorld(backend);
        b.restore(a.snapshot());
        expect(b.controllerContacts(ENEMY | COIN, COIN)).toBe(n);
        expect(records(b, n)).toEqual(want);
      });

      it.runIf(gc !== undefined)("a call allocates no JS heap once its records fit", async () => {
        const world = await levelWorld(backend, { capacity: 4096 });
        const rnd = mulberry32(5);
        for (let k = 0; k < 100; k++) world.platforms!.addBall(rnd() * 600, rnd() * 300, 8);
        for (let k = 0; k < 50; k++) world.rectLevel!.addCharacter(rnd() * 600, rnd() * 300, 16, 40);
        for (let k = 0; k < 50; k++) world.tileMap!.addController(rnd() * 600 + 8, rnd() * 300);
        scatter(world, 6, 3000);
        for (let k = 0; k < 2000; k++) world.controllerContacts(ENEMY | COIN, COIN);
        const n = world.controllerContacts(ENEMY | COIN, COIN);
        expect(n).toBeGreaterThan(0);
        expect(leastHeapPerCall(() => world.controllerContacts(ENEMY | COIN, COIN), 500, 2)).toBeLessThan(2);
      });

      it("refuses bad arguments and bad bodies with the fix in the message", async () => {
        const world = await levelWorld(backend);
        world.platforms!.addBall(10, 10, 4);
        expect(refusal(() => world.controllerContacts(0)).code).toBe("INVALID_MASK");
        expect(refusal(() => world.controllerContacts(1.5)).code).toBe("INVALID_MASK");
        expect(refusal(() => world.controllerContacts(1, -1)).code).toBe("INVALID_GROUPS");
        expect(refusal(() => world.controllerContacts(1, 2 ** 32)).code).toBe("INVALID_GROUPS");
        const id = world.addRect(10, 10, 4, 4, ENEMY);
        world.x[world.indexOf(id)] = NaN;
        expect(refusal(() => world.controllerContacts(ENEMY)).code).toBe("INVALID_ENTITY");
        world.x[world.indexOf(id)] = 10;
        expect(world.controllerContacts(ENEMY)).toBe(1);
        world.dispose();
        expect(refusal(() => world.controllerContacts(ENEMY)).code).toBe("DISPOSED");
      });
    });
  }
});
