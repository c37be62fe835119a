// The arena on Phaser 4: hitcore does the collision (fixtures/arena.ts: moveBodies with Bounce for
// every bullet against the Tiled level, firstHits against the enemies), Phaser draws. The scene's
// update() steps the game; the bullets are one Extern game object, Phaser's hook for raw WebGL in
// its display list, whose render() uploads hitcore's views world.x and world.y to two vertex
// buffers straight from the wasm memory and draws every bullet as a point in one call, so no code
// runs per bullet. Enemies and the player (25 bodies) are Rectangles placed from the same views.
import Phaser from "phaser";
import { ARENA_HEIGHT, ARENA_WIDTH, afterStep, checkCanvas, checkDue, Colour, createArena, levelStream, probe, recordError, RunnerInput, type ArenaGame } from "../shared/arena_page.js";
import { DRAW_HEADER, DrawOp, recordLength, type DrawStream } from "../../bindings/browser.js";
import { BULLET_RADIUS } from "../../fixtures/arena.js";

// A point per bullet at (aX, aY), BULLET_RADIUS * 2 pixels wide, through the Extern's matrix
// (camera and transform, turned over by Phaser when it draws into a framebuffer) and Phaser's
// projection of the drawing context, as its own shaders do.
const VERTEX = `
attribute float aX;
attribute float aY;
uniform mat4 uProjectionMatrix;
uniform mat3 uMatrix;
uniform float uPointSize;
void main() {
  gl_Position = uProjectionMatrix * vec4((uMatrix * vec3(aX, aY, 1.0)).xy, 0.0, 1.0);
  gl_PointSize = uPointSize;
}`;
const FRAGMENT = `
precision mediump float;
uniform vec3 uColour;
void main() {
  gl_FragColor = vec4(uColour, 1.0);
}`;

/** A debugDraw stream into a Phaser Graphics: each record a shape, filled or stroked in its colour and alpha. */
function replay(stream: DrawStream, g: Phaser.GameObjects.Graphics): void {
  const d = stream.data;
  for (let at = 0; at < stream.length; at += recordLength(d, at)) {
    const op = d[at], colour = d[at + 2], alpha = d[at + 3], p = at + DRAW_HEADER;
    g.fillStyle(colour, alpha).lineStyle(1, colour, alpha);
    if (op === DrawOp.Line) g.lineBetween(d[p], d[p + 1], d[p + 2], d[p + 3]);
    else if (op === DrawOp.Rect) g.strokeRect(d[p], d[p + 1], d[p + 2], d[p + 3]);
    else if (op === DrawOp.FillRect) g.fillRect(d[p], d[p + 1], d[p + 2], d[p + 3]);
    else if (op === DrawOp.Circle) g.strokeCircle(d[p], d[p + 1], d[p + 2]);
    else if (op === DrawOp.FillCircle) g.fillCircle(d[p], d[p + 1], d[p + 2]);
    else if (op === DrawOp.Point) g.fillRect(d[p] - 1.5, d[p + 1] - 1.5, 3, 3);
    else {
      const points: Phaser.Math.Vector2[] = [];
      for (let i = 0; i < d[p]; i++) points.push(new Phaser.Math.Vector2(d[p + 1 + 2 * i], d[p + 2 + 2 * i]));
      if (op === DrawOp.FillPolygon) g.fillPoints(points, true);
      else g.strokePoints(points, true);
    }
  }
}

/** Where the bullet program's attributes and uniforms live. */
interface Locations {
  x: number;
  y: number;
  projection: WebGLUniformLocation | null;
  matrix: WebGLUniformLocation | null;
  pointSize: WebGLUniformLocation | null;
  colour: WebGLUniformLocation | null;
}

/** Every bullet of the arena in one draw call, fed from the world's views. */
class BulletLayer extends Phaser.GameObjects.Extern {
  private program: WebGLProgram | null = null;
  private xBuffer: WebGLBuffer | null = null;
  private yBuffer: WebGLBuffer | null = null;
  private bufferBytes = 0;
  private readonly matrix = new Float32Array(9);
  private loc: Locations = { x: -1, y: -1, projection: null, matrix: null, pointSize: null, colour: null };

  constructor(scene: Phaser.Scene, private readonly game: ArenaGame) {
    super(scene);
  }

  // Phaser flushes its batch and yields a clean WebGL state before this call, and restores its own after.
  override render(renderer: Phaser.Renderer.WebGL.WebGLRenderer, drawingContext: Phaser.Renderer.WebGL.DrawingContext, calcMatrix: Phaser.GameObjects.Components.TransformMatrix): void {
    const gl = renderer.gl, world = this.game.world, n = this.game.bullets;
    if (!this.program) this.setUp(gl);
    const x = world.x, y = world.y; // views over the wasm memory: the upload reads them in place
    gl.useProgram(this.program);
    if (x.byteLength !== this.bufferBytes) {
      this.bufferBytes = x.byteLength;
      for (const buffer of [this.xBuffer, this.yBuffer]) {
        gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
        gl.bufferData(gl.ARRAY_BUFFER, this.bufferBytes, gl.DYNAMIC_DRAW);
      }
    }
    const l = this.loc;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.xBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, x);
    gl.enableVertexAttribArray(l.x);
    gl.vertexAttribPointer(l.x, 1, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.yBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, y);
    gl.enableVertexAttribArray(l.y);
    gl.vertexAttribPointer(l.y, 1, gl.FLOAT, false, 0, 0);
    const m = this.matrix, t = calcMatrix.matrix; // a, b, c, d, e, f: column-major for mat3
    m[0] = t[0]; m[1] = t[1]; m[3] = t[2]; m[4] = t[3]; m[6] = t[4]; m[7] = t[5]; m[8] = 1;
    gl.uniformMatrix3fv(l.matrix, false, m);
    renderer.setProjectionMatrixFromDrawingContext(drawingContext);
    gl.uniformMatrix4fv(l.projection, false, renderer.projectionMatrix.val);
    gl.uniform1f(l.pointSize, 2 * BULLET_RADIUS);
    const c = Colour.bullet;
    gl.uniform3f(l.colour, (c >> 16) / 255, ((c >> 8) & 255) / 255, (c & 255) / 255);
    gl.drawArrays(gl.POINTS, 0, n);
    gl.disableVertexAttribArray(l.x);
    gl.disableVertexAttribArray(l.y);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
  }

  private setUp(gl: WebGLRenderingContext): void {
    const compile = (type: number, source: string): WebGLShader => {
      const s = gl.createShader(type)!;
      gl.shaderSource(s, source);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`BulletLayer: ${gl.getShaderInfoLog(s)}`);
      return s;
    };
    const program = gl.createProgram()!;
    gl.attachShader(program, compile(gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(program, compile(gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`BulletLayer: ${gl.getProgramInfoLog(program)}`);
    this.program = program;
    this.xBuffer = gl.createBuffer();
    this.yBuffer = gl.createBuffer();
    this.loc = {
      x: gl.getAttribLocation(program, "aX"), y: gl.getAttribLocation(program, "aY"),
      projection: gl.getUniformLocation(program, "uProjectionMatrix"), matrix: gl.getUniformLocation(program, "uMatrix"),
      pointSize: gl.getUniformLocation(program, "uPointSize"),
      colour: gl.getUniformLocation(program, "uColour"),
    };
  }
}

class ArenaScene extends Phaser.Scene {
  private readonly input_ = new RunnerInput();
  private enemies: Phaser.GameObjects.Rectangle[] = [];
  private player!: Phaser.GameObjects.Rectangle;

  constructor(private readonly game_: ArenaGame) {
    super("arena");
  }

  create(): void {
    const game = this.game_;
    probe.renderer = this.game.renderer.type === Phaser.WEBGL ? "webgl" : "canvas";
    // The level never moves: debugDraw's stream of it, replayed into one Graphics once.
    replay(levelStream(game), this.add.graphics());
    this.add.existing(new BulletLayer(this, game));
    for (let e = 0; e < game.enemies; e++) this.enemies.push(this.add.rectangle(0, 0, 1, 1, Colour.enemy).setOrigin(0, 0));
    this.player = this.add.rectangle(0, 0, 1, 1, Colour.player).setOrigin(0, 0);
    // After Phaser rendered a frame: check it against the views now and then.
    this.game.events.on(Phaser.Core.Events.POST_RENDER, () => {
      if (checkDue(game)) checkCanvas(game, this.game.canvas);
    });
  }

  override update(): void {
    const game = this.game_;
    try {
      const t0 = performance.now();
      game.step(this.input_.bits(game.frame)); // stepCharacters, stepControllers, moveBodies, firstHits
      const world = game.world, x = world.x, y = world.y, a = world.a, b = world.b, n = game.bullets;
      for (let e = 0; e < game.enemies; e++) {
        const r = this.enemies[e], k = n + e;
        r.setPosition(x[k], y[k]).setSize(a[k], b[k]);
        r.fillColor = game.flash[e] > 0 ? Colour.enemyHit : Colour.enemy;
      }
      const l = game.level, p = game.player;
      this.player.setPosition(l.charX[p], l.charY[p]).setSize(l.charW[p], l.charH[p]);
      afterStep(game, this.input_, performance.now() - t0);
    } catch (err) {
      this.scene.pause();
      recordError(err);
    }
  }
}

async function main(): Promise<void> {
  const game = await createArena("phaser", Phaser.VERSION);
  new Phaser.Game({
    // WebGL: the bullets' Extern draws with WebGL; the drawing buffer is kept so the page can check its pixels.
    type: Phaser.WEBGL,
    width: ARENA_WIDTH,
    height: ARENA_HEIGHT,
    parent: "stage",
    backgroundColor: Colour.background,
    render: { antialias: false, preserveDrawingBuffer: true },
    audio: { noAudio: true },
    banner: false,
    scene: new ArenaScene(game),
  });
}

main().catch(recordError);
