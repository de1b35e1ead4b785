import { chmodSync, lstatSync, mkdirSync, statfsSync } from 'node:fs';

/** `statfs`'s type of a tmpfs (linux/magic.h). */
const TMPFS_MAGIC = 0x01021994;
/** Free room /dev/shm must have (a run writes a few hundred MB at most: its cluster, the crash and backup tests' clusters, uploads). */
const ROOM = 4 * 1024 ** 3;

/**
 * The test run's temporary folder in memory: when TMPDIR is not set and /dev/shm is a tmpfs with
 * room, TMPDIR becomes `/dev/shm/fishlog-test-tmp-<uid>` for the run (Vitest's process, its workers
 * and everything they start: the run's PostgreSQL cluster, the clusters of the crash, backup and e2e
 * tests, Chromium's profiles, uploaded files). Returns the folder, or undefined when the system's
 * temporary folder stays.
 *
 * Why: every test file clones the template database, ~1,800 files, and on this project's machines
 * (ext4 on a virtual disk) creating a file takes ~0.25 ms: 0.8 s a clone on disk, 0.06 s on tmpfs
 * (the same PostgreSQL, the same files). The data is the same and nobody reads it after the run
 * (the run's cluster already skips fsync). Set TMPDIR to keep the run on another folder.
 */
export function useMemoryTempDir(): string | undefined {
  if (process.env.TMPDIR || process.platform !== 'linux') return undefined;
  try {
    const shm = statfsSync('/dev/shm');
    if (shm.type !== TMPFS_MAGIC || shm.bavail * shm.bsize < ROOM) return undefined;
    const uid = process.getuid?.() ?? 0;
    const dir = `/dev/shm/fishlog-test-tmp-${uid}`;
    mkdirSync(dir, { recursive: true });
    // Only a folder of this user's own, itself and not a link (another user could have made either in its place:
    // a link to a folder of this user's would otherwise be made writable for everyone below).
    const made = lstatSync(dir);
    if (!made.isDirectory() || made.isSymbolicLink() || made.uid !== uid) return undefined;
    // As /tmp: the embedded cluster's server runs as another OS user when the tests run as root.
    chmodSync(dir, 0o1777);
    process.env.TMPDIR = dir;
    return dir;
  } catch {
    return undefined;
  }
}
