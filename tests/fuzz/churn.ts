// `npm run fuzz`'s long runs of valid calls, with memory measured along the way: the churn (bodies,
// characters, monsters, balls and controllers added, removed and moved across every part of one
// world, queries in between) and the bullet-hell soak (bullets moved against the level with
// moveBodies, then firstHits against the enemies, every frame). After a warm-up, the wasm memory
// (pages of 64 KiB) must not grow and the JS heap (after a forced collection) must stay within a
// band; both are printed at every tenth of the run.
import { BodyFlag, Response, type CreateOptions, type World } from "../../bindings/node.js";

type Make = (backend: "wasm" | "js") => (o: CreateOptions) => Promise<World>;

const gc = (globalThis as { gc?: () => void }).gc;

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MAP = [
  "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
  "X                              X",
  "X   XXXX        --       XXX   X",
  "X                              X",
  "X        H         XXXX        X",
  "X   o    H    2          o     X",
  "XXXXXXX  H  XXXXXXX   XXXXXXXXXX",
  "X                              X",
  "X     1        ^^^        0    X",
  "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
];

/** Memory at one point of a run: wasm pages and JS heap MB after a collection. */
interface Sample { at: number; pages: number; heapMB: number }

function sample(world: World, at: number): Sample {
  gc?.();
  return { at, pages: world.memoryBytes / 65536, heapMB: process.memoryUsage().heapUsed / 1048576 };
}

/** Prints the samples and whether memory stayed flat after the warm-up (the first tenth). */
function report(what: string, samples: Sample[], ms: number, unit: string): boolean {
  const warm = samples.filter((s) => s.at >= samples[samples.length - 1].at / 10);
  const pages = warm.map((s) => s.pages), heap = warm.map((s) => s.heapMB);
  const pagesFlat = Math.max(...pages) === pages[0];
  // The heap after a forced collection moves by what V8 keeps of compiled code and feedback: flat is
  // no trend, here within 2 MB of where it was after the warm-up.
  const heapFlat = Math.max(...heap) - heap[0] < 2;
  console.log(`${what}: ${samples[samples.length - 1].at.toLocaleString("en")} ${unit} in ${(ms / 1000).toFixed(1)} s`);
  console.log(`  wasm memory pages at each tenth: ${samples.map((s) => s.pages).join(", ")}`);
  console.log(`  JS heap MB at each tenth (after gc): ${samples.map((s) => s.heapMB.toFixed(2)).join(", ")}`);
  console.log(`  after the warm-up: wasm memory ${pagesFlat ? "flat" : "GREW"} (${pages[0]} -> ${Math.max(...pages)} pages), JS heap ${heapFlat ? "flat" : "GREW"} (${heap[0].toFixed(2)} -> max ${Math.max(...heap).toFixed(2)} MB)${gc ? "" : " (no --expose-gc: heap figures include garbage)"}`);
  return pagesFlat && heapFlat;
}

/** Adds, removes and moves across every part of one world, `ops` operations, queries in between. */
export async function churn(make: Make, ops: number, backend: "wasm" | "js" = "wasm"): Promise<boolean> {
  const world = await make(backend)({ capacity: 64 });
  const { tileMap: map, rectLevel: level, platforms: plat } = world.loadLevel({ ascii: MAP, tileSize: 32, platforms: { maxRadius: 16 } });
  const prefab = level.addPrefab([0, 0, 64, 16, 48, 16, 16, 32]);
  for (let k = 0; k < 8; k++) level.addInstance(prefab, 100 + 110 * k, 250, k % 2);
  plat.addPolygon([300, 40, 360, 40, 330, 90]);
  plat.addSurfaces([500, 120, 600, 110, 620, 110, 700, 140]);
  const rand = rng(12345);
  const bodies: number[] = [], chars: number[] = [], monsters: number[] = [];
  const controllers = [map.addController(60, 150), map.addController(400, 150)];
  const W = map.width, H = map.height;
  const samples: Sample[] = [];
  const started = performance.now();
  for (let op = 0; op < ops; op++) {
    if (op % Math.max(1, Math.floor(ops / 10)) === 0) samples.push(sample(world, op));
    const r = rand(), x = 40 + rand() * (W - 80), y = 40 + rand() * (H - 80);
    if (r < 0.3) {
      if (bodies.length < 400) bodies.push(rand() < 0.5 ? world.addCircle(x, y, 1 + 8 * rand(), 1 + (op & 1)) : world.addRect(x, y, 2 + 10 * rand(), 2 + 10 * rand(), 1 + (op & 1)));
      else world.remove(bodies.splice(Math.floor(rand() * bodies.length), 1)[0]);
    } else if (r < 0.5) {
      if (bodies.length > 0) world.setPosition(bodies[Math.floor(rand() * bodies.length)], x, y);
    } else if (r < 0.6) {
      if (bodies.length > 0 && rand() < 0.5) world.remove(bodies.splice(Math.floor(rand() * bodies.length), 1)[0]);
    } else if (r < 0.67) {
      if (chars.length < 12) chars.push(level.addCharacter(x, y, 20, 40));
      else level.removeCharacter(chars.splice(Math.floor(rand() * chars.length), 1)[0]);
    } else if (r < 0.72) {
      if (chars.length > 0) level.placeCharacter(chars[Math.floor(rand() * chars.length)], x, y);
    } else if (r < 0.79) {
      if (monsters.length < 24) monsters.push(map.addMonster(x, y, 16, 16, op & 3));
      else map.removeMonster(monsters.splice(Math.floor(rand() * monsters.length), 1)[0]);
    } else if (r < 0.83) {
      if (monsters.length > 0) map.moveMonster(monsters[Math.floor(rand() * monsters.length)], x, y);
    } else if (r < 0.88) {
      // The platforms' balls: added up to 32, then cleared together (the part has no single removal).
      if (plat.ballCount < 32) plat.addBall(x, y, 4 + 8 * rand(), 0, 0);
      else plat.clearBalls();
    } else if (r < 0.9) {
      map.setControllerPosition(controllers[op & 1], x, y);
    } else if (r < 0.94) {
      world.selfPairs();
    } else if (r < 0.96) {
      world.firstHits(1, 2);
    } else if (r < 0.97) {
      world.moveBodies(0xffffffff, Response.Slide);
    } else if (r < 0.98) {
      world.overlapLevel();
    } else if (r < 0.99) {
      world.controllerContacts(0xffffffff, 2);
    } else {
      plat.step(1 / 60); level.stepCharacters(); map.stepControllers(1 / 60);
    }
  }
  samples.push(sample(world, ops));
  world.validate(); map.validate(); level.validate(); plat.validate();
  const ok = report(`churn (${backend})`, samples, performance.now() - started, "operations (add, remove, move across every part, queries between)");
  world.dispose();
  return ok;
}

/**
 * The bullet-hell scene for `frames` frames: 2,000 bullets fired from the bottom, moved against a
 * tile map and a rect level with moveBodies (bouncing), then firstHits against 64 enemies; a bullet
 * that hit an enemy or stopped is fired again from the gun.
 */
export async function soak(make: Make, frames: number, backend: "wasm" | "js" = "wasm"): Promise<boolean> {
  const BULLET = 1, ENEMY = 2, N = 2000;
  const world = await make(backend)({ capacity: 4096 });
  world.loadLevel({ ascii: MAP, tileSize: 32, platforms: { maxRadius: 16 } });
  const level = world.rectLevel!;
  const prefab = level.addPrefab([0, 0, 40, 8]);
  for (let k = 0; k < 6; k++) level.addInstance(prefab, 150 + 120 * k, 120);
  const rand = rng(777);
  for (let k = 0; k < N; k++) world.addCircle(500, 270, 2, BULLET);
  for (let e = 0; e < 64; e++) world.addCircle(60 + 14 * e, 60 + 20 * (e % 4), 6, ENEMY);
  const fire = (vx: Float32Array, vy: Float32Array, x: Float32Array, y: Float32Array, s: number) => {
    x[s] = 500; y[s] = 270;
    const a = -Math.PI * rand();
    vx[s] = 9 * Math.cos(a); vy[s] = 9 * Math.sin(a);
  };
  { const x = world.x, y = world.y, vx = world.vx, vy = world.vy; for (let s = 0; s < N; s++) fire(vx, vy, x, y, s); }
  const samples: Sample[] = [];
  let hits = 0, moved = 0;
  const started = performance.now();
  for (let f = 0; f < frames; f++) {
    if (f % Math.max(1, Math.floor(frames / 10)) === 0) samples.push(sample(world, f));
    moved += world.moveBodies(BULLET, Response.Bounce, 0.9);
    const n = world.firstHits(BULLET, ENEMY);
    hits += n;
    const pairs = world.pairs, flags = world.flags, x = world.x, y = world.y, vx = world.vx, vy = world.vy;
    for (let i = 0; i < n; i++) fire(vx, vy, x, y, pairs[2 * i]);
    for (let s = 0; s < N; s++) if ((flags[s] & BodyFlag.Stopped) === 0 && vx[s] === 0 && vy[s] === 0) fire(vx, vy, x, y, s);
  }
  samples.push(sample(world, frames));
  world.validate();
  const ok = report(`bullet-hell soak (${backend}: ${N} bullets, 64 enemies, moveBodies + firstHits per frame; ${hits.toLocaleString("en")} hits, ${moved.toLocaleString("en")} level contacts)`,
    samples, performance.now() - started, "frames");
  world.dispose();
  return ok;
}
