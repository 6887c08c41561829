import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port';

/**
 * deploy/nginx.conf, run: Debian's nginx with the configuration's placeholders filled, in front of
 * a shop (or a stand-in of one), as docs/deploy.md deploys it. Used by its test
 * (tests/integration/reverse-proxy.test.ts) and by `npm run lighthouse`, which measures pages as a
 * shopper gets them: compressed and served through the proxy.
 */

export const NGINX = '/usr/sbin/nginx';
export const BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';
export const NGINX_CONF = fileURLToPath(new URL('../../deploy/nginx.conf', import.meta.url));

export interface ReverseProxy {
  url: string;
  port: number;
  /** What nginx printed (its error log goes to stderr). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts nginx on a free port of 127.0.0.1 in `folder` (its prefix and cache), passing to
 * `upstream` (`host:port`) and serving the build's files from `staticDir` (the build's
 * .next/static). Throws when nginx or its brotli module is missing, or the configuration names a
 * placeholder this does not fill.
 */
export async function startReverseProxy(options: { upstream: string; staticDir: string; folder: string }): Promise<ReverseProxy> {
  if (!existsSync(NGINX)) throw new Error(`nginx is not installed (${NGINX}): apt-get install nginx libnginx-mod-http-brotli-static (.ci/run does)`);
  if (!existsSync(BROTLI_MODULE)) throw new Error(`nginx's brotli_static module is missing (${BROTLI_MODULE}): apt-get install libnginx-mod-http-brotli-static`);
  const prefix = path.join(options.folder, 'nginx');
  mkdirSync(prefix, { recursive: true });
  // As root, nginx's workers run as www-data and must enter the folders.
  chmodSync(options.folder, 0o755);
  const port = await freePort();
  const values: Record<string, string> = {
    '@SHOP_UPSTREAM@': options.upstream,
    '@LISTEN@': `127.0.0.1:${port}`,
    '@STATIC_DIR@': `${options.staticDir.replace(/\/$/, '')}/`,
    '@CACHE_DIR@': path.join(prefix, 'cache'),
    '@PREFIX@': prefix,
  };
  const template = readFileSync(NGINX_CONF, 'utf8');
  for (const name of Object.keys(values)) if (!template.includes(name)) throw new Error(`deploy/nginx.conf no longer uses ${name}`);
  const conf = template.replace(/@[A-Z_]+@/g, (name) => {
    const value = values[name];
    if (value === undefined) throw new Error(`deploy/nginx.conf has an unknown placeholder ${name}`);
    return value;
  });
  const confPath = path.join(prefix, 'nginx.conf');
  writeFileSync(confPath, conf);

  let printed = '';
  const nginx: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', confPath, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  nginx.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  nginx.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  await waitForPort(port, 10_000, nginx, () => printed);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    output: () => printed,
    stop: async () => {
      if (nginx.exitCode !== null) return;
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGTERM'); // a fast shutdown of the master and its workers
      await exited;
    },
  };
}

async function waitForPort(port: number, within: number, nginx: ChildProcess, printed: () => string): Promise<void> {
  const until = Date.now() + within;
  for (;;) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited (${nginx.exitCode}):\n${printed()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
      socket.setTimeout(500, () => socket.destroy());
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nginx did not accept on port ${port} within ${within} ms:\n${printed()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
