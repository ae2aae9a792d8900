// Lanes: at most `size` holders at once, the others waiting first come, first served. Used to let
// a burst of new M-Pesa purchases take turns so that paid guests' callbacks and grants, which do
// not wait for a lane, never queue behind them (decision 0028). p-limit wraps one function call;
// a purchase must give its lane back in the middle, before Daraja's STK push, hence these few lines.

export interface Lane {
  /** Gives the lane to the next in line; a second call does nothing. */
  leave(): void;
}

export interface Lanes {
  /** Resolves once a lane is free; its holder must leave() it (in a finally). */
  enter(): Promise<Lane>;
  /** Holders now, and callers waiting for a lane (for tests and diagnostics). */
  readonly busy: number;
  readonly waiting: number;
}

export function lanes(size: number): Lanes {
  if (!Number.isSafeInteger(size) || size < 1) throw new Error(`lanes: size must be a whole number ≥ 1, got ${size}`);
  let busy = 0;
  const queue: (() => void)[] = [];
  const lane = (): Lane => {
    let left = false;
    return {
      leave() {
        if (left) return;
        left = true;
        const next = queue.shift();
        // The lane passes straight to the next in line: busy stays the same.
        if (next) next();
        else busy--;
      },
    };
  };
  return {
    enter() {
      if (busy < size) {
        busy++;
        return Promise.resolve(lane());
      }
      return new Promise((resolve) => queue.push(() => resolve(lane())));
    },
    get busy() {
      return busy;
    },
    get waiting() {
      return queue.length;
    },
  };
}

export interface FirstServed {
  /** Runs work that goes first: while any runs, callers of quiet() wait. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves once no such work runs, or after `maxWaitMs` at most (so the rest is never starved). */
  quiet(maxWaitMs: number): Promise<void>;
  readonly running: number;
}

/** Work that others step aside for (decision 0028: paid guests' callbacks and grants before new purchases). */
export function firstServed(): FirstServed {
  let running = 0;
  let waiters: (() => void)[] = [];
  const wakeAll = () => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  return {
    async run(work) {
      running++;
      try {
        return await work();
      } finally {
        if (--running === 0) wakeAll();
      }
    },
    quiet(maxWaitMs) {
      if (running === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== wake);
          resolve();
        }, maxWaitMs);
        waiters.push(wake);
      });
    },
    get running() {
      return running;
    },
  };
}
