// Steering the player: the bullet-hell page's ship (the mouse sets a target it flies to, arrow
// keys / WASD push it) and the arena page's runner (arrow keys / A D run, Space / W / Up jump).
// Until the first input each moves on its own, so an untouched page (or the headless test) still
// exercises the player's queries.
import type { Ship } from "./render.js";

const KEY_SPEED = 320; // world units per second
const MOUSE_SPEED = 900;

const LEFT = 0, RIGHT = 1, UP = 2, DOWN = 3;
// Key codes (layout-independent, so WASD is where it should be on any keyboard) to directions.
const KEYS = new Map<string, number>([
  ["ArrowLeft", LEFT], ["KeyA", LEFT],
  ["ArrowRight", RIGHT], ["KeyD", RIGHT],
  ["ArrowUp", UP], ["KeyW", UP],
  ["ArrowDown", DOWN], ["KeyS", DOWN],
]);

export class ShipControl {
  private readonly held = new Uint8Array(4); // 1 while the direction's key is down
  private targetX = NaN;
  private targetY = NaN;
  private idle = true;
  private time = 0;

  constructor(canvas: HTMLCanvasElement) {
    canvas.addEventListener("pointermove", (e) => {
      // The canvas is scaled by CSS: map client pixels to canvas (world) units.
      const box = canvas.getBoundingClientRect();
      this.targetX = ((e.clientX - box.left) * canvas.width) / box.width;
      this.targetY = ((e.clientY - box.top) * canvas.height) / box.height;
      this.idle = false;
    });
    window.addEventListener("keydown", (e) => {
      // Leave the arrow keys to the page's own controls when one has focus.
      const dir = KEYS.get(e.code);
      if (dir === undefined || e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
      e.preventDefault();
      this.held[dir] = 1;
      this.targetX = NaN; // the keys take over from the mouse
      this.idle = false;
    });
    window.addEventListener("keyup", (e) => {
      const dir = KEYS.get(e.code);
      if (dir !== undefined) this.held[dir] = 0;
    });
    window.addEventListener("blur", () => this.held.fill(0));
  }

  /** Moves the ship for dt seconds, kept inside width x height. */
  update(ship: Ship, dt: number, width: number, height: number): void {
    this.time += dt;
    if (this.idle) {
      ship.x = width / 2 + Math.sin(this.time * 0.7) * width * 0.35 - ship.w / 2;
      ship.y = height * 0.9 + Math.sin(this.time * 1.9) * height * 0.04;
    } else if (this.held[LEFT] | this.held[RIGHT] | this.held[UP] | this.held[DOWN]) {
      const dx = this.held[RIGHT] - this.held[LEFT], dy = this.held[DOWN] - this.held[UP];
      const norm = dx !== 0 && dy !== 0 ? Math.SQRT1_2 : 1;
      ship.x += dx * norm * KEY_SPEED * dt;
      ship.y += dy * norm * KEY_SPEED * dt;
    } else if (!Number.isNaN(this.targetX)) {
      // Fly the ship's centre towards the pointer at a bounded speed.
      const dx = this.targetX - (ship.x + ship.w / 2), dy = this.targetY - (ship.y + ship.h / 2);
      const dist = Math.hypot(dx, dy), step = MOUSE_SPEED * dt;
      if (dist <= step) {
        ship.x += dx;
        ship.y += dy;
      } else {
        ship.x += (dx / dist) * step;
        ship.y += (dy / dist) * step;
      }
    }
    ship.x = Math.min(Math.max(ship.x, 0), width - ship.w);
    ship.y = Math.min(Math.max(ship.y, 0), height - ship.h);
  }
}

/** Input bits a platformer character reads (the rect level's IN_LEFT, IN_RIGHT, IN_JUMP). */
export interface RunnerBits {
  left: number;
  right: number;
  jump: number;
}

const RUN_LEFT = new Set(["ArrowLeft", "KeyA"]);
const RUN_RIGHT = new Set(["ArrowRight", "KeyD"]);
const RUN_JUMP = new Set(["Space", "ArrowUp", "KeyW"]);

/**
 * Arrow keys / A D run, Space / W / Up jump. A jump is one press: it is handed to one step and
 * then forgotten, so holding the key does not bounce the character. `active` turns true at the
 * first key, when the page's autopilot should hand over.
 */
export class RunnerKeys {
  private left = false;
  private right = false;
  private jump = false;
  active = false;

  constructor(private readonly bits: RunnerBits) {
    window.addEventListener("keydown", (e) => this.key(e, true));
    window.addEventListener("keyup", (e) => this.key(e, false));
    window.addEventListener("blur", () => { this.left = this.right = false; });
  }

  /** The bits for the next step (consumes a pending jump). */
  take(): number {
    const b = this.bits;
    const input = (this.left ? b.left : 0) | (this.right ? b.right : 0) | (this.jump ? b.jump : 0);
    this.jump = false;
    return input;
  }

  private key(e: KeyboardEvent, down: boolean): void {
    if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
    if (RUN_LEFT.has(e.code)) this.left = down;
    else if (RUN_RIGHT.has(e.code)) this.right = down;
    else if (RUN_JUMP.has(e.code)) { if (down && !e.repeat) this.jump = true; }
    else return;
    e.preventDefault();
    if (down) this.active = true;
  }
}
