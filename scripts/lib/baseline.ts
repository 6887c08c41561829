/**
 * Another commit's production build, for `npm run bench -- --baseline <commit>`: the commit checked
 * out in a git worktree in the system's temp folder, with this checkout's node_modules, its Prisma
 * client generated and its site built by its own `npm run build` (`next build` where it has none),
 * ready for its own `npm start -- --prebuilt` there.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface BaselineCheckout {
  /** The worktree. */
  dir: string;
  commit: string;
  subject: string;
  /** How its build came about, for the report. */
  build: string;
  /** What the reader of the report must know (a different lockfile, migrations, data scripts). */
  notes: string[];
  /** Removes the worktree (kept with `keep`). */
  remove: () => Promise<void>;
}

/** Runs a command; answers its stdout; rejects with its output when it fails. */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; show?: boolean }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', options.show ? 'inherit' : 'pipe', options.show ? 'inherit' : 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')} (in ${options.cwd}) failed with exit code ${code}\n${(err || out).slice(-3000)}`)),
    );
  });
}

const git = (cwd: string, ...args: string[]) => run('git', args, { cwd }).then((out) => out.trim());

/** The files that shape the benchmark's data; the data is made by this checkout's versions. */
const DATA_SOURCES = ['scripts/fill-catalog.ts', 'scripts/data/fill-vocabulary.json', 'prisma/seed', 'src/server/catalog/seed.ts', 'src/server/catalog/counts.ts'];

/** The full hash of `ref` (a hash, branch or tag); a clear error when there is none. */
export async function resolveCommit(root: string, ref: string): Promise<string> {
  return git(root, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`).catch(() => {
    throw new Error(`--baseline ${ref}: no such commit in ${root}`);
  });
}

/**
 * Checks `ref` out in a worktree and builds it (`build: false`: only checks it out, for its image's
 * tree to be made from: scripts/lib/image-tree.ts). With `keep`, the worktree lives at a fixed place
 * per commit and a finished build found there is used again (the next run skips the build).
 */
export async function prepareBaseline(
  root: string,
  ref: string,
  options: { keep: boolean; log: (line: string) => void; buildEnv: NodeJS.ProcessEnv; build?: boolean },
): Promise<BaselineCheckout> {
  const { log } = options;
  const commit = await resolveCommit(root, ref);
  const subject = await git(root, 'log', '-1', '--format=%s', commit);
  const notes = await differences(root, commit);

  const kept = path.join(tmpdir(), 'art-prints-bench-baseline', commit);
  let dir: string;
  let build: string;
  if (options.build === false) {
    dir = mkdtempSync(path.join(tmpdir(), `art-prints-baseline-${commit.slice(0, 10)}-`));
    await git(root, 'worktree', 'add', '--detach', dir, commit);
    build = 'checked out only';
    log(`baseline ${commit.slice(0, 10)} (${subject}): checked out in ${dir}`);
  } else if (options.keep && existsSync(path.join(kept, '.next', 'BUILD_ID')) && (await git(kept, 'rev-parse', 'HEAD').catch(() => '')) === commit) {
    dir = kept;
    build = `built by an earlier run, kept in ${dir}`;
    log(`baseline ${commit.slice(0, 10)}: using the build kept in ${dir}`);
  } else {
    if (options.keep) {
      await removeWorktree(root, kept);
      mkdirSync(kept, { recursive: true });
      dir = kept;
    } else {
      dir = mkdtempSync(path.join(tmpdir(), `art-prints-baseline-${commit.slice(0, 10)}-`));
    }
    log(`baseline ${commit.slice(0, 10)} (${subject}): worktree in ${dir}`);
    await git(root, 'worktree', 'add', '--detach', dir, commit);
    const modules = linkNodeModules(root, dir);
    log(`baseline: node_modules ${modules}`);
    log('baseline: generating the Prisma client');
    const scripts = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
    // Prisma downloads no engine for `generate` when PRISMA_SCHEMA_ENGINE_BINARY names any file (docs: toolchain).
    const generateEnv = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? 'package.json' };
    if (scripts['db:generate']) await run('npm', ['run', 'db:generate'], { cwd: dir, env: generateEnv });
    else await run('npx', ['prisma', 'generate'], { cwd: dir, env: generateEnv });
    // The commit's own build (`npm run build`: at some commits `next build` alone, at later ones
    // also the built JavaScript its start serves), else `next build`.
    log(`baseline: building it (${scripts.build ? `npm run build: ${scripts.build}` : 'next build'})`);
    const startedAt = Date.now();
    const buildEnv: NodeJS.ProcessEnv = { ...options.buildEnv, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' };
    if (scripts.build) await run('npm', ['run', 'build'], { cwd: dir, env: buildEnv, show: true });
    else await run(process.execPath, [path.join(dir, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], { cwd: dir, env: buildEnv, show: true });
    build = `built for this run in ${((Date.now() - startedAt) / 60_000).toFixed(1)} min${options.keep ? `, kept in ${dir}` : ''}`;
  }
  return {
    dir,
    commit,
    subject,
    build,
    notes,
    remove: async () => {
      if (!options.keep) await removeWorktree(root, dir);
    },
  };
}

/**
 * The worktree gets this checkout's node_modules as hard links (`cp -al`: seconds, no extra disk),
 * not a symlink: Turbopack refuses a node_modules symlink that points out of the project
 * ("Symlink node_modules is invalid, it points out of the filesystem root", vercel/next.js#88335).
 * Tools' caches under node_modules/.cache are left out, so nothing the build writes there can
 * reach this checkout's files through a shared inode. Across file systems (no hard links) it
 * falls back to the symlink and says so.
 */
export function linkNodeModules(root: string, dir: string): string {
  const source = realpathSync(path.join(root, 'node_modules'));
  const target = path.join(dir, 'node_modules');
  if (statSync(source).dev === statSync(dir).dev) {
    if (spawnSync('cp', ['-al', source, target], { stdio: 'inherit' }).status === 0) {
      rmSync(path.join(target, '.cache'), { recursive: true, force: true });
      return `hard-linked from ${source}`;
    }
    rmSync(target, { recursive: true, force: true });
  }
  symlinkSync(source, target, 'dir');
  return `symlinked to ${source} (another file system: if next build refuses the symlink, run the benchmark from a checkout on the same file system as the temp folder)`;
}

async function removeWorktree(root: string, dir: string): Promise<void> {
  if (existsSync(dir)) await git(root, 'worktree', 'remove', '--force', dir).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
  await git(root, 'worktree', 'prune').catch(() => undefined);
}

/** What differs between the commit and this checkout beyond the code under test. */
async function differences(root: string, commit: string): Promise<string[]> {
  const notes: string[] = [];
  const differs = async (...paths: string[]) =>
    await run('git', ['diff', '--quiet', commit, '--', ...paths], { cwd: root }).then(
      () => false,
      () => true,
    );
  if (await differs('package-lock.json')) notes.push("The two commits' `package-lock.json` differ; the old build ran with **this checkout's** installed packages.");
  const changedData = [];
  for (const source of DATA_SOURCES) if (await differs(source)) changedData.push(`\`${source}\``);
  if (changedData.length)
    notes.push(
      `The data was filled and seeded by this checkout's ${changedData.join(', ')}, which differ from the old commit's; at its start the old build seeded its copy with its own curated seed.`,
    );
  const own = new Set(readdirSync(path.join(root, 'prisma', 'migrations')).filter((m) => /^\d/.test(m)));
  const theirs = new Set((await git(root, 'ls-tree', '--name-only', `${commit}:prisma/migrations`).catch(() => '')).split('\n').filter((m) => /^\d/.test(m)));
  const onlyNew = [...own].filter((m) => !theirs.has(m));
  const onlyOld = [...theirs].filter((m) => !own.has(m));
  if (onlyNew.length)
    notes.push(
      `The database holds migrations the old commit does not ship (its copy keeps them; health and migrate ignore them): ${onlyNew.map((m) => `\`${m}\``).join(', ')}.`,
    );
  if (onlyOld.length)
    notes.push(`The old commit ships migrations this checkout does not; its start applied them to its own copy: ${onlyOld.map((m) => `\`${m}\``).join(', ')}.`);
  return notes;
}
