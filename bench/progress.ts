// Progress of a long benchmark command, on stderr so that stdout and the results files stay clean:
// each unit of work announces itself as "k of N", with the time elapsed and an estimate of the time
// left (the mean time of the units done so far, times the units left).

function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class Progress {
  private done_ = 0;
  private readonly start = performance.now();

  /** `label` names the command or suite; `total` is how many units it will announce. */
  constructor(private readonly label: string, private readonly total: number) {}

  /** Announces the next unit of work, `what`: "[label] k of N: what (m:ss elapsed, about m:ss left)". */
  step(what: string): void {
    const elapsed = performance.now() - this.start, times = [`${clock(elapsed)} elapsed`];
    if (this.done_ > 0) times.push(`about ${clock((elapsed / this.done_) * (this.total - this.done_))} left`);
    this.done_++;
    process.stderr.write(`[${this.label}] ${this.done_} of ${this.total}: ${what} (${times.join(", ")})\n`);
  }

  /** Says the command or suite is through, and how long it took. */
  done(): void {
    process.stderr.write(`[${this.label}] done: ${this.total} in ${clock(performance.now() - this.start)}\n`);
  }
}
