// Replication to a second host: an SFTP replica on a network namespace running Debian's sshd,
// written by Litestream under a real `gatehouse serve`, restored into a new file that passes
// `check` and `audit verify` and serves. Skipped, saying why, where the machine does not allow it.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { PATIENCE_MS } from '../helpers/wait.ts';
import { describe, it, type TestContext } from 'node:test';
import { ApiClient } from '../helpers/client.ts';
import { assertRestoredServes, NO_LITESTREAM, startReplicated, stopReplicated, tempDir, TOKEN, userIds, waitUntilReplicated, writeConfig } from './helpers/litestream.ts';
import { cli } from '../helpers/cli.ts';

describe('replication over SFTP', { skip: NO_LITESTREAM }, () => {
  it('replicates over SFTP to a second host (a network namespace running sshd) and restores from it', async (t) => {
    const host = await sftpHost(t);
    if (!host) return;
    const dir = tempDir('replicate-sftp');
    const db = join(dir, 'primary.db');
    const replica = [
      '- type: sftp',
      `  host: ${host.address}:${host.port}`,
      `  user: ${host.user}`,
      `  key-path: ${host.key}`,
      `  path: ${host.path}`,
    ];
    const config = writeConfig(dir, db, replica);
    const service = await startReplicated(config, db);
    const api = new ApiClient(service.url, TOKEN);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await api.post('/users', { email: `sftp-${i}@example.com`, full_name: `Sftp ${i}` });
      assert.equal(res.status, 200);
      ids.push(res.body.user_id);
    }
    await waitUntilReplicated(config, db, 1000);
    await stopReplicated(service);
    assert.ok(existsSync(join(host.path, 'generations')), 'the replica was written on the second host');

    // On the "new machine": the same config, restored into a file at another path.
    const restoredFile = join(tempDir('restore-sftp'), 'gatehouse.db');
    const restore = await cli(['restore', '--litestream-config', config, '--db', db, '--to', restoredFile], process.env);
    assert.equal(restore.code, 0, restore.stdout + restore.stderr);
    const restored = userIds(restoredFile);
    assert.deepEqual(ids.filter((id) => !restored.has(id)), []);
    const check = await cli(['check', '--db', restoredFile], process.env);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    const verify = await cli(['audit', 'verify', '--db', restoredFile], process.env);
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    await assertRestoredServes(restoredFile, ids[0]!);
  });
});

interface SftpHost {
  address: string;
  port: number;
  user: string;
  key: string;
  path: string;
}

/**
 * A second host for the SFTP replica: a network namespace joined to this one by a veth pair
 * (10.231.<n>.1 here, .2 there: addresses on that pair only, no route anywhere else), running
 * Debian's sshd with keys made for the test. Skips the test, saying why, where the machine does not
 * allow it. Torn down when the test ends.
 */
async function sftpHost(t: TestContext): Promise<SftpHost | undefined> {
  const sshd = '/usr/sbin/sshd';
  if (process.platform !== 'linux') return skip(t, 'network namespaces are Linux only');
  if (!existsSync(sshd)) return skip(t, `${sshd} is missing (Debian's openssh-server; .ci/run installs it)`);
  if (!existsSync('/usr/bin/ssh-keygen')) return skip(t, '/usr/bin/ssh-keygen is missing (Debian\'s openssh-client)');
  if (process.getuid?.() !== 0) return skip(t, 'creating a network namespace needs root');
  const n = process.pid % 250;
  const ns = `gh-ls-${process.pid}`;
  const [hostIf, peerIf] = [`ghls${process.pid}a`, `ghls${process.pid}b`].map((name) => name.slice(0, 15));
  const run = (args: string[]) => execFileSync(args[0]!, args.slice(1), { stdio: 'pipe' });
  try {
    run(['ip', 'netns', 'add', ns]);
  } catch (err) {
    return skip(t, `this machine does not allow network namespaces: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`);
  }
  let daemon: ChildProcess | undefined;
  t.after(async () => {
    if (daemon && daemon.exitCode === null) {
      daemon.kill('SIGTERM');
      await once(daemon, 'exit');
    }
    try {
      run(['ip', 'netns', 'del', ns]); // takes its end of the veth pair, and so the pair, with it
    } catch {
      // Already gone.
    }
  });
  const address = `10.231.${n}.2`;
  run(['ip', 'link', 'add', hostIf!, 'type', 'veth', 'peer', 'name', peerIf!]);
  run(['ip', 'link', 'set', peerIf!, 'netns', ns]);
  run(['ip', 'addr', 'add', `10.231.${n}.1/30`, 'dev', hostIf!]);
  run(['ip', 'link', 'set', hostIf!, 'up']);
  run(['ip', 'netns', 'exec', ns, 'ip', 'addr', 'add', `${address}/30`, 'dev', peerIf!]);
  run(['ip', 'netns', 'exec', ns, 'ip', 'link', 'set', peerIf!, 'up']);
  run(['ip', 'netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up']);

  const dir = tempDir('sshd');
  const key = join(dir, 'client_ed25519');
  run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_ed25519')]);
  run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', key]);
  execFileSync('cp', [`${key}.pub`, join(dir, 'authorized_keys')]);
  const port = 2222;
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `ListenAddress ${address}:${port}`,
      `HostKey ${join(dir, 'host_ed25519')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      'Subsystem sftp internal-sftp',
      '',
    ].join('\n'),
  );
  mkdirSync('/run/sshd', { recursive: true }); // Debian's sshd insists on its privilege-separation directory
  daemon = spawn('ip', ['netns', 'exec', ns, sshd, '-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  daemon.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const deadline = Date.now() + PATIENCE_MS;
  while (!/Server listening/.test(log)) {
    if (daemon.exitCode !== null) assert.fail(`sshd exited: ${log}`);
    if (Date.now() > deadline) assert.fail(`sshd did not listen within ${PATIENCE_MS} ms: ${log}`);
    await delay(50);
  }
  const path = join(dir, 'replica');
  mkdirSync(path);
  return { address, port, user: 'root', key, path };
}

function skip(t: TestContext, reason: string): undefined {
  t.skip(reason);
  return undefined;
}


