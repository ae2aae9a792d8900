import { describe, expect, it } from "vitest";
import { firstServed, lanes } from "~/lib/lanes";

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("lanes", () => {
  it("lets `size` holders in at once and the others in, first come first served, as lanes are left", async () => {
    const two = lanes(2);
    const order: string[] = [];
    const held = new Map<string, { leave(): void }>();
    for (const name of ["a", "b", "c", "d"]) {
      void two.enter().then((lane) => {
        order.push(name);
        held.set(name, lane);
      });
    }
    await settle();
    expect(order).toEqual(["a", "b"]);
    expect([two.busy, two.waiting]).toEqual([2, 2]);

    held.get("b")!.leave();
    await settle();
    expect(order).toEqual(["a", "b", "c"]);
    expect([two.busy, two.waiting]).toEqual([2, 1]);

    held.get("a")!.leave();
    held.get("c")!.leave();
    await settle();
    expect(order).toEqual(["a", "b", "c", "d"]);
    expect([two.busy, two.waiting]).toEqual([1, 0]);
    held.get("d")!.leave();
    expect(two.busy).toBe(0);
  });

  it("ignores a second leave(), so a lane given back early (before a slow call) and again in a finally is given back once", async () => {
    const one = lanes(1);
    const first = await one.enter();
    let second: { leave(): void } | undefined;
    void one.enter().then((lane) => (second = lane));
    let third = false;
    void one.enter().then(() => (third = true));
    first.leave();
    first.leave();
    await settle();
    expect(second).toBeDefined();
    expect(third).toBe(false);
    expect([one.busy, one.waiting]).toEqual([1, 1]);
    second!.leave();
    await settle();
    expect(third).toBe(true);
  });

  it("refuses a size that is not a whole number of at least one", () => {
    expect(() => lanes(0)).toThrow(/size/);
    expect(() => lanes(1.5)).toThrow(/size/);
  });
});

describe("firstServed", () => {
  it("holds quiet() while work that goes first runs, and lets it through once none runs", async () => {
    const first = firstServed();
    let finishA!: () => void;
    let finishB!: () => void;
    const a = first.run(() => new Promise<void>((resolve) => (finishA = resolve)));
    const b = first.run(() => new Promise<void>((resolve) => (finishB = resolve)));
    expect(first.running).toBe(2);
    let through = false;
    void first.quiet(60_000).then(() => (through = true));
    finishA();
    await a;
    await settle();
    expect(through).toBe(false);
    finishB();
    await b;
    await settle();
    expect(through).toBe(true);
    expect(first.running).toBe(0);
    await first.quiet(60_000); // nothing runs: at once
  });

  it("lets quiet() through after maxWaitMs however long the work runs, and counts work that throws as done", async () => {
    const first = firstServed();
    let finish!: () => void;
    const long = first.run(() => new Promise<void>((resolve) => (finish = resolve)));
    const started = Date.now();
    await first.quiet(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(first.running).toBe(1);
    finish();
    await long;
    await expect(first.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(first.running).toBe(0);
  });
});
