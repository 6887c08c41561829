/**
 * A CPU profile of this Node process, written to $CPU_PROFILE_DIR when it exits: loaded with
 * `NODE_OPTIONS=--import=<this file>` by scripts/lib/shop-server.ts (`cpuProfileDir`), since Node
 * refuses `--cpu-prof` in NODE_OPTIONS and start.ts spawns the server itself. Plain JavaScript: it
 * loads before tsx. Open a profile in Chrome's DevTools (Performance) or speedscope.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.on('exit', () => {
    // An in-process inspector session answers synchronously, so this still runs in 'exit'.
    session.post('Profiler.stop', (error, result) => {
      if (error || !result) return;
      const script = path.basename(process.argv[1] ?? 'node').replace(/[^\w.-]/g, '_');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `CPU.${script}.${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
