// Steering the player's ship: the mouse sets a target it flies to, arrow keys / WASD push it.
// Until the first input the ship weaves on its own, so an untouched page (or the headless test)
// still exercises the ship-vs-bullets query.
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
