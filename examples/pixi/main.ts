// The arena on PixiJS 8: hitcore does the collision (fixtures/arena.ts: moveBodies with Bounce for
// every bullet against the Tiled level, firstHits against the enemies), PixiJS draws. The bullets
// are one Mesh of points whose two attributes are Pixi Buffers over hitcore's views world.x and
// world.y: each tick uploads them to the GPU straight from the wasm memory, so no code runs per
// bullet. Enemies and the player (25 bodies) are Sprites placed from the same views.
import { Application, Buffer, BufferUsage, Geometry, Graphics, Mesh, Shader, Sprite, Texture, UPDATE_PRIORITY, VERSION } from "pixi.js";
import { ARENA_HEIGHT, ARENA_WIDTH, afterStep, checkCanvas, checkDue, Colour, createArena, levelStream, probe, recordError, RunnerInput } from "../shared/arena_page.js";
import { DRAW_HEADER, DrawOp, recordLength, type DrawStream } from "../../bindings/browser.js";
import { BULLET_RADIUS } from "../../fixtures/arena.js";

// One point per bullet at (aX, aY), BULLET_RADIUS * 2 pixels wide (points, not instanced quads:
// SwiftShader, headless Chromium's WebGL, drew 8,000 quads at 6 fps and points at 36); the
// projection and the world and local transforms come from PixiJS's global and local uniform groups.
const vertex = `
in float aX;
in float aY;
uniform mat3 uProjectionMatrix;
uniform mat3 uWorldTransformMatrix;
uniform mat3 uTransformMatrix;
uniform float uPointSize;
void main() {
  mat3 mvp = uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix;
  gl_Position = vec4((mvp * vec3(aX, aY, 1.0)).xy, 0.0, 1.0);
  gl_PointSize = uPointSize;
}`;
const fragment = `
uniform vec3 uBulletColour;
out vec4 finalColor;
void main() {
  finalColor = vec4(uBulletColour, 1.0);
}`;

/** A debugDraw stream into a PixiJS Graphics: each record a shape, filled or stroked in its colour and alpha. */
function replay(stream: DrawStream, g: Graphics): Graphics {
  const d = stream.data;
  for (let at = 0; at < stream.length; at += recordLength(d, at)) {
    const op = d[at], style = { color: d[at + 2], alpha: d[at + 3] }, p = at + DRAW_HEADER;
    if (op === DrawOp.Line) g.moveTo(d[p], d[p + 1]).lineTo(d[p + 2], d[p + 3]).stroke({ ...style, width: 1 });
    else if (op === DrawOp.Rect || op === DrawOp.FillRect) g.rect(d[p], d[p + 1], d[p + 2], d[p + 3]);
    else if (op === DrawOp.Circle || op === DrawOp.FillCircle) g.circle(d[p], d[p + 1], d[p + 2]);
    else if (op === DrawOp.Polygon || op === DrawOp.FillPolygon) g.poly(Array.from(d.subarray(p + 1, p + 1 + 2 * d[p])));
    else if (op === DrawOp.Point) g.rect(d[p] - 1.5, d[p + 1] - 1.5, 3, 3);
    if (op === DrawOp.FillRect || op === DrawOp.FillCircle || op === DrawOp.FillPolygon || op === DrawOp.Point) g.fill(style);
    else if (op !== DrawOp.Line) g.stroke({ ...style, width: 1 });
  }
  return g;
}

async function main(): Promise<void> {
  const app = new Application();
  // WebGL (the bullets' shader is GLSL); the drawing buffer is kept so the page can check its pixels.
  await app.init({
    width: ARENA_WIDTH, height: ARENA_HEIGHT, preference: "webgl", background: Colour.background, antialias: false,
    resolution: 1, preserveDrawingBuffer: true,
  });
  document.getElementById("stage")!.prepend(app.canvas);
  const gl = (app.renderer as { gl?: WebGLRenderingContext | WebGL2RenderingContext }).gl;
  const game = await createArena("pixi", VERSION);
  probe.renderer = typeof WebGL2RenderingContext !== "undefined" && gl instanceof WebGL2RenderingContext ? "webgl2" : gl ? "webgl" : "other";
  const world = game.world;

  // The level never moves: debugDraw's stream of it, replayed into one Graphics once.
  app.stage.addChild(replay(levelStream(game), new Graphics()));

  // The bullets: slots 0 .. bullets - 1 of the world, one point each. The buffers hold the
  // views themselves (not copies); the world was made with room for every body, so the views stay.
  const xs = new Buffer({ data: world.x, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
  const ys = new Buffer({ data: world.y, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
  const geometry = new Geometry({
    topology: "point-list",
    attributes: {
      aX: { buffer: xs, format: "float32" },
      aY: { buffer: ys, format: "float32" },
    },
    // The bullets' slots in order; the enemies' slots after them are not drawn.
    indexBuffer: Uint32Array.from({ length: game.bullets }, (_, k) => k),
  });
  const c = Colour.bullet;
  const shader = Shader.from({
    gl: { vertex, fragment, name: "hitcore-bullets" },
    resources: { bulletUniforms: { uBulletColour: { value: new Float32Array([(c >> 16) / 255, ((c >> 8) & 255) / 255, (c & 255) / 255]), type: "vec3<f32>" },
      uPointSize: { value: 2 * BULLET_RADIUS, type: "f32" } } },
  });
  app.stage.addChild(new Mesh({ geometry, shader }));

  const enemies: Sprite[] = [];
  for (let e = 0; e < game.enemies; e++) enemies.push(app.stage.addChild(new Sprite(Texture.WHITE)));
  const player = app.stage.addChild(new Sprite(Texture.WHITE));
  player.tint = Colour.player;

  const input = new RunnerInput();
  const bulletBytes = 4 * game.bullets;
  app.ticker.add(() => {
    try {
      const t0 = performance.now();
      game.step(input.bits(game.frame)); // stepCharacters, stepControllers, moveBodies, firstHits
      // Hand the moved positions to the GPU: the views are the buffers' data.
      if (xs.data !== world.x || ys.data !== world.y) { xs.data = world.x; ys.data = world.y; }
      xs.update(bulletBytes);
      ys.update(bulletBytes);
      const x = world.x, y = world.y, a = world.a, b = world.b, n = game.bullets;
      for (let e = 0; e < game.enemies; e++) {
        const s = enemies[e], k = n + e;
        s.x = x[k]; s.y = y[k]; s.width = a[k]; s.height = b[k];
        s.tint = game.flash[e] > 0 ? Colour.enemyHit : Colour.enemy;
      }
      const l = game.level, p = game.player;
      player.x = l.charX[p]; player.y = l.charY[p]; player.width = l.charW[p]; player.height = l.charH[p];
      afterStep(game, input, performance.now() - t0);
    } catch (err) {
      app.ticker.stop();
      recordError(err);
    }
  });
  // After the render (UPDATE_PRIORITY.LOW): check the drawn frame against the views now and then.
  app.ticker.add(() => {
    if (checkDue(game)) checkCanvas(game, app.canvas);
  }, undefined, UPDATE_PRIORITY.UTILITY);
}

main().catch(recordError);
