'use strict';
// One graphile-worker process of the `queue` benchmark, driven by the benchmark's JVM one command per line on
// stdin, answered with one line on stdout that starts with '@' (the protocol of io.ax.bench.queue.QueueNode, the AX
// side's process):
//   QUEUE <n> <first>    adds n jobs numbered from first in one addJobs call
//   START                starts the worker (the handler counts its executions from here)
//   COUNT                executions since START
//   END                  stops the worker once its jobs are done; executions and this process's CPU since START
//   PRODUCE <rate> <s>   adds one job at a time, rate per second for s seconds, each carrying the time it was added
//   STOP                 exits (after END)
//   LATENCY              added -> handler start of the jobs run since START or the last LATENCY (ms): count, p50,
//                        p99, max
// Settings (--key=value): url, schema, concurrency, max-pool, local-queue, the documented high-performance ones.
const { run, makeWorkerUtils, Logger } = require('graphile-worker');
const readline = require('readline');
const { performance } = require('perf_hooks');

const args = {};
for (const a of process.argv.slice(2)) {
  const eq = a.indexOf('=');
  if (a.startsWith('--') && eq > 2) {
    args[a.slice(2, eq)] = a.slice(eq + 1);
  }
}
const connectionString = args.url;
const schema = args.schema || 'graphile_worker';
const concurrency = Number(args.concurrency || 24);
const maxPoolSize = Number(args['max-pool'] || 25);
const localQueueSize = Number(args['local-queue'] || 500);

// warnings and errors go to stderr, which the benchmark keeps in a log file; the rest would cost the worker time
const logger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') {
    process.stderr.write(`${new Date().toISOString()} ${level}: ${message}\n`);
  }
});

// epoch milliseconds with a fraction: the clock the AX side reads too (the same machine's real-time clock)
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let executions = 0;
let latencies = [];
let runner = null;
let cpuAtStart = null;

const taskList = {
  noop: async (payload) => {
    if (payload && payload.t !== undefined) {
      latencies.push(now() - payload.t);
    }
    executions++;
  },
};

function reply(line) {
  process.stdout.write(line + '\n');
}

function percentile(sorted, q) {
  if (sorted.length === 0) {
    return 0;
  }
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

async function answer(utils, line) {
  const [command, ...rest] = line.trim().split(/\s+/);
  switch (command) {
    case 'QUEUE': {
      const n = Number(rest[0]);
      const first = Number(rest[1] || 0);
      const specs = new Array(n);
      for (let i = 0; i < n; i++) {
        specs[i] = { identifier: 'noop', payload: { n: first + i } };
      }
      const t0 = now();
      await utils.addJobs(specs);
      return `@QUEUE seconds=${((now() - t0) / 1000).toFixed(4)}`;
    }
    case 'START': {
      executions = 0;
      latencies = [];
      cpuAtStart = process.cpuUsage();
      runner = await run({
        connectionString,
        schema,
        concurrency,
        maxPoolSize,
        logger,
        taskList,
        noHandleSignals: true,
        preset: {
          worker: {
            connectionString,
            schema,
            concurrentJobs: concurrency,
            maxPoolSize,
            localQueue: { size: localQueueSize },
            completeJobBatchDelay: 0,
          },
        },
      });
      return '@START';
    }
    case 'COUNT':
      return `@COUNT executions=${executions}`;
    case 'END': {
      await runner.stop();
      runner = null;
      const cpu = process.cpuUsage(cpuAtStart);
      return `@END executions=${executions} cpu=${((cpu.user + cpu.system) / 1e6).toFixed(4)}`;
    }
    case 'PRODUCE': {
      const rate = Number(rest[0]);
      const total = Math.round(rate * Number(rest[1]));
      const start = now();
      for (let i = 0; i < total; i++) {
        const wait = start + (i * 1000) / rate - now();
        if (wait > 0) {
          await sleep(wait);
        }
        await utils.addJob('noop', { t: now() });
      }
      return `@PRODUCE count=${total}`;
    }
    case 'LATENCY': {
      const sorted = latencies.sort((a, b) => a - b);
      latencies = [];
      return `@LATENCY count=${sorted.length} p50=${percentile(sorted, 0.5).toFixed(3)}`
        + ` p99=${percentile(sorted, 0.99).toFixed(3)} max=${percentile(sorted, 1).toFixed(3)}`;
    }
    case 'STOP':
      reply('@STOPPED');
      process.exit(0);
      return '';
    default:
      return `@ERROR unknown command '${line.trim()}'`;
  }
}

async function main() {
  const utils = await makeWorkerUtils({ connectionString, schema, logger });
  await utils.migrate();
  reply(`@READY pid=${process.pid}`);
  const lines = readline.createInterface({ input: process.stdin });
  // one command at a time, in order: the benchmark waits for each answer before it sends the next
  const queue = [];
  let busy = false;
  lines.on('line', (line) => {
    queue.push(line);
    if (!busy) {
      drain();
    }
  });
  // the benchmark is gone: no worker outlives it
  lines.on('close', () => process.exit(2));
  async function drain() {
    busy = true;
    while (queue.length > 0) {
      const line = queue.shift();
      try {
        reply(await answer(utils, line));
      } catch (e) {
        reply('@ERROR ' + String(e && e.stack ? e.stack : e).replace(/\n/g, ' '));
      }
    }
    busy = false;
  }
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + '\n');
  reply('@FAILED ' + String(e).replace(/\n/g, ' '));
  process.exit(1);
});
