import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from '../src/paths.js';

/** The compiled server `npm start` runs (tsconfig.build.json's outDir). */
export const builtMain = path.join(projectRoot, 'dist', 'main.js');

/**
 * `npm start`'s build step (`tsc -b tsconfig.build.json`, 0.6 s when dist/ is up to date), for the
 * test files that start the real server as a process. One build at a time: the files that need it
 * start together on the two workers, and two compilers writing dist/ at once could leave a file
 * half written. The lock is a folder (mkdir is atomic); one older than five minutes was left by a
 * run that died and is taken over.
 */
export async function buildServer(): Promise<void> {
  const lock = path.join(projectRoot, 'dist.build-lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (statOrUndefined(lock)?.mtimeMs ?? Date.now());
      if (age > 300_000) rmSync(lock, { recursive: true, force: true });
      else await sleep(200);
    }
  }
  try {
    execFileSync(process.execPath, [path.join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'], { cwd: projectRoot, stdio: 'inherit' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function statOrUndefined(file: string) {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
