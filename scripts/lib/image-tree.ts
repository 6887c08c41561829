import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { startShopServer, type ShopServer, type ShopServerOptions } from './shop-server';

/**
 * The production image's file tree, made here without a Docker engine (this machine has none) by
 * following the Dockerfile itself, instruction by instruction: each stage is a folder standing for
 * its `/app`, `COPY . .` copies the checkout's files as a fresh clone has them minus
 * `.dockerignore`, `COPY --from` copies between stage folders, `RUN` runs the stage's command there
 * with the stage's `ENV`. So the tree the tests, the benchmark and Lighthouse start is the image's:
 * the same install flags, the same build, the same prune, the same files kept, whatever the
 * Dockerfile says next (tests/image/image.test.ts).
 *
 * What a folder cannot stand for is left out and said so: the base image (the machine's Node
 * instead of the image's Node 24), and the image's own user (`groupadd`, `useradd`, `chown`: the
 * tree belongs to whoever made it).
 */
export interface ImageTree {
  /** The runtime stage's folder: the image's `/app`. */
  root: string;
  /** The image's CMD, run in `root`. */
  command: string[];
  /** The runtime stage's ENV (`/app` paths as paths in `root`). */
  env: Record<string, string>;
}

interface Instruction {
  keyword: string;
  text: string;
}

/** The Dockerfile's instructions: comments dropped, continued lines joined. */
function instructions(dockerfile: string): Instruction[] {
  const joined = dockerfile
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), text: rest.join(' ') };
    });
}

/** `.dockerignore`'s patterns as one test of a path relative to the context (a pattern also covers what is under it). */
function dockerIgnore(context: string): (file: string) => boolean {
  const file = path.join(context, '.dockerignore');
  const patterns = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#'))
    : [];
  const expressions = patterns.map((pattern) => {
    const source = pattern
      .replace(/^\/+|\/+$/g, '')
      .split(/(\*\*\/|\*\*|\*|\?)/)
      .map((part) => ({ '**/': '(?:.*/)?', '**': '.*', '*': '[^/]*', '?': '[^/]' })[part] ?? part.replace(/[.+^${}()|[\]\\]/g, '\\$&'))
      .join('');
    return new RegExp(`^${source}(?:/.*)?$`);
  });
  return (relative) => expressions.some((expression) => expression.test(relative));
}

/** The `/app` of a stage, as a folder. */
const inStage = (stage: string, target: string) => path.join(stage, target.replace(/^\/app\/?/, ''));

/** `RUN` commands, in the stage's folder: `/app` is the folder, and the image user's steps are left out. */
function runnable(command: string, stage: string): string | undefined {
  const steps = command
    .split('&&')
    .map((step) => step.trim())
    .filter((step) => !/^(groupadd|useradd|chown)\b/.test(step))
    .map((step) => step.replace(/(^|\s)\/app(?=[/\s]|$)/g, `$1${stage}`));
  return steps.length ? steps.join(' && ') : undefined;
}

const CALLERS_OWN = /^(NODE_ENV|NODE_OPTIONS|PORT|DATABASE_URL|TEST_DATABASE_URL|VITEST.*|npm_.*|INIT_CWD)$/i;

function run(command: string, cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    // The stage's ENV over the machine's (its network settings, npm's cache), without what belongs
    // to the caller's own run (a test's NODE_ENV, npm's script variables, the tests' database).
    const machine = Object.fromEntries(Object.entries(process.env).filter(([name]) => !CALLERS_OWN.test(name)));
    const child = spawn('bash', ['-c', command], { cwd, env: { ...machine, ...env } as NodeJS.ProcessEnv, stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`image tree: \`${command}\` failed with exit code ${code}`))));
  });
}

/** The instructions followed into the tree. */
const FOLLOWED = new Set(['ARG', 'FROM', 'ENV', 'WORKDIR', 'COPY', 'RUN', 'CMD']);
/** Instructions that change the image's metadata or its user, not its files (the tree runs as the caller). */
const NOTHING_A_FOLDER_HOLDS = new Set(['USER', 'EXPOSE', 'HEALTHCHECK', 'LABEL']);

/**
 * Follows the Dockerfile of `context` (a checkout) into `out` (emptied first): a folder per stage,
 * the runtime stage (the last) the image's tree.
 */
export async function buildImageTree(context: string, out: string): Promise<ImageTree> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const steps = instructions(readFileSync(path.join(context, 'Dockerfile'), 'utf8'));
  // An instruction not followed here would make the tree differ from the image unseen: refused
  // before anything runs.
  const unknown = steps.find((step) => !FOLLOWED.has(step.keyword) && !NOTHING_A_FOLDER_HOLDS.has(step.keyword));
  if (unknown) throw new Error(`image tree: the Dockerfile's ${unknown.keyword} is not followed by scripts/lib/image-tree.ts: teach it, or the tree is not the image`);
  const ignored = dockerIgnore(context);
  // The context as a fresh clone has it: tracked files and new ones git does not ignore.
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: context, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && existsSync(path.join(context, file)) && !ignored(file));

  const stages = new Map<string, string>();
  const stageEnv = new Map<string, Record<string, string>>();
  let stage = '';
  let stageName = '';
  let env: Record<string, string> = {};
  let command: string[] = [];
  const args: Record<string, string> = {};
  // A stage later stages still read (COPY --from, FROM) is copied when another starts from it; else moved.
  const readLater = (name: string, from: number) => steps.slice(from).some((step) => new RegExp(`(^|\\s)(--from=)?${name}(\\s|$)`).test(step.text));

  for (const [index, { keyword, text }] of steps.entries()) {
    if (keyword === 'ARG') {
      const [name = '', value = ''] = text.split('=');
      args[name] = value;
    } else if (keyword === 'FROM') {
      const [image = '', , name = `stage-${index}`] = text.replace(/\$\{(\w+)\}/g, (_, arg: string) => args[arg] ?? '').split(/\s+/);
      const next = path.join(out, name);
      const parent = stages.get(image);
      if (parent) {
        if (readLater(image, index + 1)) cpSync(parent, next, { recursive: true, verbatimSymlinks: true });
        else renameSync(parent, next);
        env = { ...stageEnv.get(image) };
      } else {
        mkdirSync(next, { recursive: true });
        env = {};
      }
      stages.set(name, next);
      stage = next;
      stageName = name;
      command = [];
    } else if (keyword === 'ENV') {
      for (const [, name, quoted] of text.matchAll(/(\w+)=("[^"]*"|\S+)/g)) {
        const value = quoted!.replace(/^"|"$/g, '');
        env[name!] = value.startsWith('/app') ? inStage(stage, value) : value;
      }
      stageEnv.set(stageName, { ...env });
    } else if (keyword === 'WORKDIR') {
      if (text !== '/app') throw new Error(`image tree: WORKDIR ${text}: only /app is followed`);
    } else if (keyword === 'COPY') {
      const words = text.split(/\s+/);
      const from = words.find((word) => word.startsWith('--from='))?.slice('--from='.length);
      const sources = words.filter((word) => !word.startsWith('--'));
      const target = sources.pop()!;
      const intoFolder = target.endsWith('/') || target === '.' || sources.length > 1;
      for (const source of sources) {
        // As Docker: a folder's contents go into the target; a file goes into it, or becomes it.
        const copy = (relative: string, read: (relative: string) => string) => {
          const destination = intoFolder ? path.join(inStage(stage, target), relative) : inStage(stage, target);
          mkdirSync(path.dirname(destination), { recursive: true });
          cpSync(read(relative), destination, { recursive: true, verbatimSymlinks: true });
        };
        if (from) {
          const origin = inStage(stages.get(from)!, source);
          if (statSync(origin).isDirectory()) cpSync(origin, inStage(stage, target), { recursive: true, verbatimSymlinks: true });
          else copy(path.basename(origin), () => origin);
        } else if (source === '.') {
          for (const file of files) copy(file, (relative) => path.join(context, relative));
        } else if (files.includes(source)) {
          copy(path.basename(source), () => path.join(context, source));
        } else {
          const under = files.filter((file) => file.startsWith(`${source.replace(/\/$/, '')}/`));
          for (const file of under) {
            const destination = path.join(inStage(stage, target), file.slice(source.replace(/\/$/, '').length + 1));
            mkdirSync(path.dirname(destination), { recursive: true });
            cpSync(path.join(context, file), destination);
          }
        }
      }
    } else if (keyword === 'RUN') {
      const runnableCommand = runnable(text, stage);
      if (runnableCommand) {
        mkdirSync(stage, { recursive: true });
        await run(runnableCommand, stage, env);
      }
    } else if (keyword === 'CMD') {
      command = JSON.parse(text) as string[];
    }
  }
  // Only the image's own tree is kept (the stages before it are gigabytes of build tools).
  for (const dir of stages.values()) if (dir !== stage) rmSync(dir, { recursive: true, force: true });
  return { root: stage, command, env };
}

/**
 * Starts the image's tree as its CMD starts it (scripts/lib/shop-server.ts), with the image's ENV
 * but where the helper says it listens and keeps its data. The image has no embedded PostgreSQL
 * (its install runs no package scripts): `databaseUrl` is required.
 */
export function startImage(tree: ImageTree, options: Omit<ShopServerOptions, 'root' | 'command' | 'prebuilt' | 'dev'> & { databaseUrl: string }): Promise<ShopServer> {
  const { PORT: _port, DATA_DIR: _dataDir, ...env } = tree.env;
  return startShopServer({ ...options, root: tree.root, command: tree.command, env: { ...env, ...options.env } });
}
