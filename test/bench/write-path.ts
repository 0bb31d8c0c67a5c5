// Benchmark (issue 42): the CPU of one audited membership PUT without HTTP — the access service's putEdge on a copy
// of the seeded database, 32 to a group-commit batch, as 32 connections make them. Prints µs of CPU (user, system) a
// write and the wall time, which the batch's fsync dominates on a busy disk. Run: npm run bench:writes (N=6000 writes).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.ts';
import { AREAS } from '../../src/app.ts';
import { createContext } from '../../src/context.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { startGroupCommit } from '../../src/db/group-commit.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/lib/log.ts';
import { putEdge } from '../../src/modules/access/service.ts';
import { seededCopy } from './seed.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-writes-'));
const file = join(workDir, 'gatehouse.db');
const seeded = seededCopy(file, (line) => console.log(`  ${line}`), ROOT);
const db = openDatabase(file);
migrate(db, new Date());
const ctx = createContext({ db, clock: systemClock, config: loadConfig({ GATEHOUSE_LOG_LEVEL: 'silent' }, { db: file }), log: createLogger('silent') }, AREAS);
const commits = startGroupCommit(db);
const admin = ctx.stores.users.getByEmail('admin@gatehouse.local')!;
const actor = { userId: admin.user_id, name: admin.full_name, email: admin.email, tokenLabel: 'bench', tokenPreview: '****', ip: '127.0.0.1' };
const N = Number(process.env.N ?? 6000);
let turn = 0;
function round(n: number) {
  for (let done = 0; done < n; done += 32) {
    for (let i = 0; i < 32; i++) {
      const [groupId, , userId] = seeded.memberships[turn++ % seeded.memberships.length]!.split('/');
      putEdge(ctx, actor, 'group_user', userId!, groupId!, undefined, new Date(Date.now() + (60 + (turn % 600)) * 60_000).toISOString());
    }
    commits.flush();
  }
}
// Warm-up: statements prepared, the touched pages in the caches.
round(1000);
const cpu = process.cpuUsage();
const t = process.hrtime.bigint();
round(N);
const used = process.cpuUsage(cpu);
console.log(`${N} PUTs: ${((used.user + used.system) / N).toFixed(0)} µs CPU each (user ${(used.user / N).toFixed(0)}, system ${(used.system / N).toFixed(0)}), wall ${(Number(process.hrtime.bigint() - t) / 1e3 / N).toFixed(0)} µs`);
commits.stop();
db.close();
rmSync(workDir, { recursive: true, force: true });
