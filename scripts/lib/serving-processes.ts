import cluster from 'node:cluster';
import { logger } from '@/server/logger';

/**
 * The shop's server (server.mjs) in `count` processes sharing one port (node:cluster): a page
 * render holds a process's one thread for 20–30 ms, so on a machine with more cores one process
 * leaves them idle while a crawler waits (docs/deploy.md, "Processes"). Each process is an instance
 * as docs/deploy.md describes them: its own caches and job worker, all safe side by side. A process
 * that ends is replaced; one that keeps ending (a wrong setting, a database that is gone: more than
 * `count` × 3 ends within a minute) stops them all. Resolves with the exit code once every process
 * has ended after `stop` (0) or after that (1).
 */
export function serveInProcesses(options: { file: string; args: string[]; env: Record<string, string | undefined>; count: number }): {
  stop(signal: NodeJS.Signals): void;
  ended: Promise<number>;
} {
  // The server runs as plain JavaScript, never with the loaders this launcher may run under.
  cluster.setupPrimary({ exec: options.file, args: options.args, execArgv: [] });
  let stopping = false;
  let code = 0;
  let ends: number[] = [];
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  const ended = new Promise<number>((resolve) => {
    cluster.on('exit', (worker, exitCode, signal) => {
      const left = Object.keys(cluster.workers ?? {}).length;
      if (stopping) {
        if (left === 0) resolve(code);
        return;
      }
      const now = Date.now();
      ends = [...ends.filter((at) => now - at < 60_000), now];
      if (ends.length > options.count * 3) {
        logger.error(`serving process ${worker.process.pid} ended (${signal ?? exitCode}), the ${ends.length}th within a minute: stopping`);
        code = 1;
        stop('SIGTERM');
        if (left === 0) resolve(code);
        return;
      }
      logger.error(`serving process ${worker.process.pid} ended (${signal ?? exitCode}): starting another`);
      cluster.fork(options.env);
    });
  });
  for (let i = 0; i < options.count; i++) cluster.fork(options.env);
  if (options.count > 1) logger.info(`serving from ${options.count} processes (SERVER_PROCESSES)`);
  return { stop, ended };
}
