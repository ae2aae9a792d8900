import os from "node:os";
import { Worker } from "node:worker_threads";

/**
 * scrypt runs in threads of its own (decision 0073). Node's async crypto.scrypt runs on libuv's pool of
 * four threads, which also serves every file read (express.static's stat on each console page) and
 * every compressed answer: four wrong passwords at once made GET /login wait for seconds. These threads
 * do nothing else; the pool is small because each hash takes 128 MiB and a whole core.
 */
const THREADS = Math.max(1, Math.min(4, Math.floor(os.availableParallelism() / 2)));

// Eval'd, so that it needs no file of its own in the Remix build.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const crypto = require("node:crypto");
parentPort.on("message", ({ id, password, salt, keylen, options }) => {
  try {
    const hash = crypto.scryptSync(password, Buffer.from(salt), keylen, options);
    parentPort.postMessage({ id, hash });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
});
`;

interface Job {
  id: number;
  password: string;
  salt: Buffer;
  keylen: number;
  options: { N: number; r: number; p: number; maxmem: number };
  resolve: (hash: Buffer) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  job: Job | null;
}

const waiting: Job[] = [];
const threads: Thread[] = [];
let nextId = 1;

function startThread(): Thread {
  const thread: Thread = { worker: new Worker(WORKER_SOURCE, { eval: true }), job: null };
  // The process may exit while a thread is idle.
  thread.worker.unref();
  thread.worker.on("message", (message: { id: number; hash?: Uint8Array; error?: string }) => {
    const job = thread.job;
    thread.job = null;
    thread.worker.unref();
    if (job?.id === message.id) {
      if (message.hash) job.resolve(Buffer.from(message.hash));
      else job.reject(new Error(message.error ?? "scrypt failed"));
    }
    runNext(thread);
  });
  thread.worker.on("error", (error) => {
    thread.job?.reject(error);
    thread.job = null;
    threads.splice(threads.indexOf(thread), 1);
    const next = waiting.shift();
    if (next) give(idleThread(), next);
  });
  threads.push(thread);
  return thread;
}

function idleThread(): Thread {
  return threads.find((t) => t.job === null) ?? startThread();
}

function give(thread: Thread, job: Job): void {
  thread.job = job;
  thread.worker.ref(); // a hash under way keeps the process alive until it answers
  const { id, password, salt, keylen, options } = job;
  thread.worker.postMessage({ id, password, salt, keylen, options });
}

function runNext(thread: Thread): void {
  const job = waiting.shift();
  if (job) give(thread, job);
}

/** crypto.scrypt's answer, computed in a password-hashing thread; waits its turn when all are busy. */
export function scryptInThread(password: string, salt: Buffer, keylen: number, options: Job["options"]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const job: Job = { id: nextId++, password, salt, keylen, options, resolve, reject };
    const idle = threads.find((t) => t.job === null);
    if (idle) give(idle, job);
    else if (threads.length < THREADS) give(startThread(), job);
    else waiting.push(job);
  });
}
