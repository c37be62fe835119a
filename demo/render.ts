// Drawing the bullet-hell scene (and the pixel layer the arena page shares). Tens of thousands of
// bullets cannot go through the canvas path API one arc at a time, so bullets are written as 3x3
// pixel squares into one reused ImageData; the few dozen enemies, the ship and the grid overlay
// are vector shapes drawn on top of it. The grid overlay is debugDraw's grid layer when the world
// lives on this thread; a worker's frame carries only the grid's shape, drawn here from the views.
import { BodyFlag, Kind, World } from "../bindings/world.js";
import { debugDraw, DrawLayer, type DebugDrawOptions } from "../bindings/debug_draw.js";

/** The views a frame is drawn from: a World's own, or a worker frame's copies of them. */
export type BodyViews = Pick<World, "x" | "y" | "a" | "b" | "kinds" | "flags">;
/** How the slots divide: bullets in [0, bullets), then the enemies. */
export interface SceneSlots {
  bullets: number;
  enemies: number;
}

/** The player's ship: its hitbox rect (top-left x, y) and whether bullets touch it this frame. */
export interface Ship {
  x: number;
  y: number;
  w: number;
  h: number;
  hit: boolean;
}

/** The broadphase grid of the last firstHits, as `world.stats()` reported it. */
export interface GridOverlay {
  visible: boolean;
  cols: number;
  rows: number;
  cellSize: number;
}

// Pixel colours as Uint32 words in the ImageData: bytes are R, G, B, A in memory, so on the
// little-endian machines browsers run on, a word reads 0xAABBGGRR.
const BACKGROUND = rgba(12, 12, 20);
const SPIRAL_BULLET = rgba(255, 79, 163);
const FAN_BULLET = rgba(79, 227, 255);

const ENEMY_COLOUR = "#7c5cff";
const ENEMY_HIT_COLOUR = "#fff2a8";
const SHIP_COLOUR = "#5cff9d";
const SHIP_HIT_COLOUR = "#ff4545";
const GRID_COLOUR = "rgba(120, 255, 160, 0.35)";
const GRID_LAYER: DebugDrawOptions = { layers: 1 << DrawLayer.Grid, colours: { grid: 0x78ffa0, gridCell: 0x78ffa0 } };

/** A colour as the Uint32 word PixelLayer writes (bytes R, G, B, A in memory). */
export function rgba(r: number, g: number, b: number, a = 255): number {
  return ((a << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

/**
 * One reused ImageData the size of the canvas, written as Uint32 pixels: tens of thousands of
 * bullets cannot go through the canvas path API one arc at a time, so each is a 3 x 3 square.
 * Allocates nothing after construction.
 */
export class PixelLayer {
  readonly image: ImageData;
  readonly pixels: Uint32Array;
  readonly width: number;
  readonly height: number;

  constructor(ctx: CanvasRenderingContext2D) {
    this.width = ctx.canvas.width;
    this.height = ctx.canvas.height;
    this.image = ctx.createImageData(this.width, this.height);
    this.pixels = new Uint32Array(this.image.data.buffer);
  }

  /** A 3 x 3 square centred on (x, y); nothing if it would cross the edge. */
  dot(x: number, y: number, colour: number): void {
    const cx = x | 0, cy = y | 0, W = this.width, px = this.pixels;
    if (cx < 1 || cy < 1 || cx >= W - 1 || cy >= this.height - 1) return;
    let at = (cy - 1) * W + cx - 1;
    for (let row = 0; row < 3; row++, at += W) {
      px[at] = colour;
      px[at + 1] = colour;
      px[at + 2] = colour;
    }
  }

  /** Draws the layer onto the canvas at its origin. */
  put(ctx: CanvasRenderingContext2D): void {
    ctx.putImageData(this.image, 0, 0);
  }
}

export class Renderer {
  private readonly layer: PixelLayer;
  readonly width: number;
  readonly height: number;

  constructor(private readonly ctx: CanvasRenderingContext2D) {
    this.layer = new PixelLayer(ctx);
    this.width = this.layer.width;
    this.height = this.layer.height;
  }

  /**
   * Draws one frame, after firstHits: enemies it flagged as hit flash. Views are read here, once
   * per frame, because a world that grew since the last frame has replaced them.
   */
  draw(world: BodyViews, hell: SceneSlots, ship: Ship, grid: GridOverlay): void {
    const x = world.x, y = world.y, a = world.a, b = world.b, kinds = world.kinds, flags = world.flags;
    this.drawBullets(x, y, hell.bullets);

    const ctx = this.ctx;
    // The grid firstHits built over the enemies: its frame and the cells holding enemies.
    if (grid.visible && world instanceof World) debugDraw(world, ctx, GRID_LAYER);
    else if (grid.visible) this.drawGrid(x, y, a, kinds, hell, grid);

    // One path per colour: enemies not hit this frame, then the ones hit.
    for (let pass = 0; pass < 2; pass++) {
      const flashing = pass === 1;
      ctx.beginPath();
      for (let e = 0; e < hell.enemies; e++) {
        const s = hell.bullets + e;
        if (((flags[s] & BodyFlag.Hit) !== 0) !== flashing) continue;
        if (kinds[s] === Kind.Rect) {
          ctx.rect(x[s], y[s], a[s], b[s]);
        } else if (kinds[s] === Kind.Circle) {
          // moveTo keeps the circles of one path from being joined by lines.
          ctx.moveTo(x[s] + a[s], y[s]);
          ctx.arc(x[s], y[s], a[s], 0, 2 * Math.PI);
        }
      }
      ctx.fillStyle = flashing ? ENEMY_HIT_COLOUR : ENEMY_COLOUR;
      ctx.fill();
    }

    this.drawShip(ship);
  }

  private drawBullets(x: Float32Array, y: Float32Array, count: number): void {
    const layer = this.layer;
    layer.pixels.fill(BACKGROUND);
    // Even slots fly on spirals, odd ones in fans (see BulletHell.spawnBullet).
    for (let k = 0; k < count; k++) layer.dot(x[k], y[k], (k & 1) === 0 ? SPIRAL_BULLET : FAN_BULLET);
    layer.put(this.ctx);
  }

  /**
   * A worker frame's grid overlay: the firstHits grid is built over the enemies: it starts at the minimum corner of their boxes
   * (circle: centre - radius; rect: top-left) and spans cols x rows cells of cellSize.
   */
  private drawGrid(
    x: Float32Array, y: Float32Array, a: Float32Array, kinds: Uint8Array, hell: SceneSlots, grid: GridOverlay,
  ): void {
    if (grid.cols === 0 || grid.rows === 0 || !(grid.cellSize > 0)) return;
    let ox = Infinity, oy = Infinity;
    for (let e = 0; e < hell.enemies; e++) {
      const s = hell.bullets + e;
      const r = kinds[s] === Kind.Circle ? a[s] : 0;
      if (x[s] - r < ox) ox = x[s] - r;
      if (y[s] - r < oy) oy = y[s] - r;
    }
    if (!Number.isFinite(ox)) return;
    const cs = grid.cellSize, right = ox + grid.cols * cs, bottom = oy + grid.rows * cs;
    const ctx = this.ctx;
    ctx.beginPath();
    for (let c = 0; c <= grid.cols; c++) {
      ctx.moveTo(ox + c * cs, oy);
      ctx.lineTo(ox + c * cs, bottom);
    }
    for (let r = 0; r <= grid.rows; r++) {
      ctx.moveTo(ox, oy + r * cs);
      ctx.lineTo(right, oy + r * cs);
    }
    ctx.strokeStyle = GRID_COLOUR;
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  private drawShip(ship: Ship): void {
    const ctx = this.ctx, { x, y, w, h } = ship;
    const colour = ship.hit ? SHIP_HIT_COLOUR : SHIP_COLOUR;
    // A nose-up arrow a little larger than the hitbox, and the hitbox itself.
    ctx.beginPath();
    ctx.moveTo(x + w / 2, y - 8);
    ctx.lineTo(x + w + 7, y + h + 4);
    ctx.lineTo(x + w / 2, y + h - 2);
    ctx.lineTo(x - 7, y + h + 4);
    ctx.closePath();
    ctx.fillStyle = colour;
    ctx.fill();
    // A white outline keeps the ship findable in a screen full of bullets.
    ctx.strokeStyle = "#ffffff";
    ctx.lineWidth = 2;
    ctx.stroke();
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
  }
}
