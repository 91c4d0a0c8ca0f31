#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The shm backend between containers: each peer in namespaces of its own.

Every peer runs under unshare(1) in new PID, mount and network namespaces
(and, for the rootless scenarios, a user namespace, root mapped to a host
uid of its own). A small init (this file, "init", PID 1 there) mounts a
tmpfs on /run (EAL's runtime directory stays in the namespace),
bind-mounts the test's rendezvous directory at a path of the peer's own
(each peer sees the directory elsewhere, as a container runtime's bind
mount does), starts the peer and waits for every process of the namespace
(the peer's reaper included) before it exits with the peer's status.

  shm_ns_test.py --peer BIN [--tag TAG] SCENARIO

  ns-pair        shm_test.py's pair with every peer namespaced
  ns-trio        its trio
  ns-kill        its kill-writer: the writer is killed (SIGKILL from the
                 host) and restarted, the survivor carries on
  ns-kill-all    its kill-all: the reapers in the namespaces remove the
                 sockets
  ns-rootless    two peers in user namespaces of host uids 4201 and 4202
                 (group 4200, mapped to root's group 0 in each), in a
                 directory of mode 01770 of that group: allow_gid=0 lets
                 them stream both ways; without it a peer is refused
  ns-rogue       shm_test.py's rogue, the rogue a process of an allowed
                 uid (4201) in namespaces of its own: contained as there
  ns-dir-modes   a directory others may write is refused unless it has
                 the sticky bit and the policy lets them in (regression:
                 one of mode 0777 was used with a warning)
  ns-policy      host uids, no user namespace: a directory of mode 01777
                 of root; root allows uid 4201; a device of uid 4201 joins
                 it, one of uid 4202 is refused by both (log lines on
                 every side, no peer, no DMB), and the two go on
  ns-touch       host uids 4201 (the victim, the directory's owner), 4202
                 and 4203, all of group 4200, a directory of mode 01770,
                 allow_gid=4200: 4202 listens as the victim's GID on a
                 free slot and touches the victim's socket; 4203 joins
                 and registers a DMB for the victim: the impostor gets no
                 handshake and no DMB, and the joiner has the victim
                 (regression: judged by ctime, the touched victim looked
                 newer and was dropped; the impostor could get its DMBs)
  ns-unmapped    a device in a user namespace (host uid 4201) in which
                 the directory's owner (host uid 4205) is not mapped;
                 host uid 4299, which it does not allow, joins: refused
                 (regression: both read as 65534, the owner's id, and
                 4299 became a peer)
  ns-dir-owner   a directory of mode 01777 made by another user (4205):
                 a device with a policy uses it and warns that its owner
                 can remove any name (regression: no word of it)

The checks of shm_test.py apply: nothing left in the directory or in
/dev/shm, no process left. Exit status: 0 pass, 1 fail, 77 skip.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
import ism_eal  # noqa: E402
import shm_test  # noqa: E402
from shm_test import Failure, GID  # noqa: E402

UID_A, UID_B, GID_AB = 4201, 4202, 4200
EPERM = 1
# A Python that other users may run (not one under /root).
PYTHON = '/usr/bin/python3' if os.access('/usr/bin/python3', os.X_OK) \
    else sys.executable


class NsPeer(shm_test.Peer):
    """A peer in namespaces of its own: test.ns (a dict) says which user
    and group it runs as (host ids; with 'userns', root of a user
    namespace mapped to them) and what it adds to its devargs."""

    def __init__(self, test, name, args):
        self.name = name
        self.pid = None
        self.host_pid = None
        ns = test.ns.get(name, {})
        cpu = test.cpus[len(test.peers) % len(test.cpus)]
        self.prefix = ism_eal.file_prefix(test.tag, 'shmns', test.scenario,
                                          name)
        inner = os.path.join(test.base, 'in-%s-%d' % (name,
                                                      len(test.peers)))
        os.mkdir(inner)
        peer = [test.peer_bin] + ism_eal.eal_args(
            cpu, self.prefix, mem_mb=128, telemetry=False) + [
            '--', '--dir', inner] + args
        if ns.get('devargs'):
            peer += ['--devargs', ns['devargs']]
        init = [PYTHON, os.path.abspath(__file__), 'init']
        cmd = ['unshare', '--pid', '--mount', '--net', '--fork']
        if 'uid' in ns and ns.get('userns'):
            cmd = ['setpriv', '--reuid', str(ns['uid']), '--regid',
                   str(ns['gid']), '--clear-groups'] + cmd + [
                '--user', '--map-root-user']
        elif 'uid' in ns:
            init += ['--as', '%d:%d' % (ns['uid'], ns['gid'])]
        init += [test.dir, inner]
        self.proc = ism_eal.Process(cmd + ['--'] + init + ['--'] + peer,
                                    name, shm_test.PROC_TIMEOUT_S,
                                    prefix=self.prefix, stdin=True,
                                    echo=True)
        self.lines = self.proc.lines
        test.peers.append(self)

    def find_pid(self):
        """The host pid of the peer: unshare's child is the init, whose
        first child is the peer."""
        end = time.monotonic() + 10
        while self.host_pid is None:
            init = children(self.proc.pid)
            kids = children(init[0]) if init else []
            if kids:
                self.host_pid = kids[0]
            elif time.monotonic() > end:
                raise Failure('%s: no peer process in the namespace' %
                              self.name)
            else:
                time.sleep(0.005)
        return self.host_pid

    def kill9(self):
        """SIGKILL the peer from the host; its init stays to wait for
        its reaper."""
        try:
            os.kill(self.find_pid(), signal.SIGKILL)
        except ProcessLookupError:
            pass
        return ism_eal.now_ns()

    def host_pid_of_peer(self):
        """stop() signals the peer by its host pid (its READY line has
        the pid in its own namespace)."""
        return self.find_pid()


def children(pid):
    try:
        with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


class NsTest(shm_test.Test):
    Peer = NsPeer

    def __init__(self, args):
        super().__init__(args)
        self.base = None
        self.ns = {}

    def rootless(self):
        for n, uid in (('a', UID_A), ('b', UID_B)):
            self.ns[n] = {'uid': uid, 'gid': GID_AB, 'userns': True,
                          'devargs': 'allow_gid=0'}
        self.own_dir(UID_A, GID_AB, 0o1770)
        # Without the policy: b sees a directory of another owner.
        self.ns['c'] = dict(self.ns['b'], devargs='')
        bare = self.Peer(self, 'c', ['--gid', GID['c'], '--role', 'dup'])
        bare.finish(60)
        if bare.grep('REFUSED') != ['REFUSED %d' % -EPERM]:
            raise Failure('a peer without allow_gid= was not refused')
        self.ns['dup'] = self.ns['b']
        self.pair()

    def policy(self):
        self.ns['a'] = {'devargs': 'allow_uid=%d' % UID_A}
        self.ns['b'] = {'uid': UID_A, 'gid': UID_A, 'devargs': 'allow_uid=0'}
        self.ns['c'] = {'uid': UID_B, 'gid': UID_B, 'devargs': 'allow_uid=0'}
        self.own_dir(0, 0, 0o1777)
        a = self.node('a', 'b', '--msgs', '1500', '--hold').ready()
        b = self.node('b', 'a', '--msgs', '1500', '--hold').ready()
        c = self.script('c')
        if c.cmd_int('xstat peers') != 0:
            raise Failure('a device of a uid not allowed has peers')
        # c's join returned once its connections were refused; the
        # refusing side logs on its control thread, maybe a bit later
        # (regression: the check did not wait for the line).
        for p in (a, b):
            try:
                p.wait_line('', pred=lambda l: 'refused a connection' in l
                            and 'uid %d' % UID_B in l)
            except Failure:
                raise Failure('%s did not log the refusal' % p.name)
        if not any('refused us: Permission denied' in l for l in c.lines):
            raise Failure('the refused device did not log why')
        if not any('not joining' in l and 'uid %d' % UID_A in l
                   for l in c.lines):
            raise Failure('c joined a device of a uid it does not allow')
        if c.cmd_int('query %s' % GID['a']) != -shm_test.ENETUNREACH:
            raise Failure('c reaches a')
        c.quit()
        a.release()
        b.release()
        a.expect_pass()
        b.expect_pass()

    def touch(self):
        uid_i, uid_j = UID_B, UID_B + 1
        for n, uid in (('v', UID_A), ('r', uid_i), ('j', uid_j)):
            self.ns[n] = {'uid': uid, 'gid': GID_AB,
                          'devargs': 'allow_gid=%d' % GID_AB}
        self.own_dir(UID_A, GID_AB, 0o1770)
        v = self.script('v')
        im = self.Peer(self, 'r', ['--gid', GID['r'], '--role',
                                   'impostor-gid', '--victim', GID['v'],
                                   '--touch', '--hold']).ready()
        im.wait_line('IMPOSTOR listening')
        j = self.script('j')
        peers = j.cmd_int('xstat peers')
        if j.cmd('reg %s 1' % GID['v']) != 'R reg 1 0':
            raise Failure('cannot register a DMB for v')
        im.release()
        hs, grants = [int(x) for x in
                      im.wait_line('IMPOSTOR handshakes').split()[2::2]]
        im.expect_pass()
        if grants != 0 or hs != 0 or peers != 2:
            raise Failure('the impostor got %d handshakes and %d DMBs of '
                          'v; the joiner has %d peers, not 2' %
                          (hs, grants, peers))
        if v.cmd_int('query %s' % GID['j']) != 0:
            raise Failure('v does not know j')
        v.quit()
        j.quit()

    def unmapped(self):
        uid_owner, uid_x = 4205, 4299
        self.ns['a'] = {'uid': UID_A, 'gid': GID_AB, 'userns': True,
                        'devargs': 'allow_uid=0'}
        self.ns['x'] = {'uid': uid_x, 'gid': uid_x,
                        'devargs': 'allow_uid=%d' % UID_A}
        GID['x'] = '0x17f'
        self.own_dir(uid_owner, uid_owner, 0o1777)
        a = self.script('a')
        x = self.script('x')
        if x.cmd_int('xstat peers') != 0:
            raise Failure('a peer that reads as the unmapped directory '
                          'owner was let in')
        if not any('belongs to a uid that is not mapped' in l
                   for l in a.lines):
            raise Failure('a did not warn that the directory\'s owner is '
                          'not mapped')
        try:
            a.wait_line('', pred=lambda l: 'refused a connection' in l and
                        'mapped in our user namespace' in l)
        except Failure:
            raise Failure('a did not log why it refused x')
        if a.cmd_int('query %s' % GID['x']) != -shm_test.ENETUNREACH:
            raise Failure('a reaches x')
        x.quit()
        a.quit()

    def dir_owner(self):
        self.own_dir(4205, 4205, 0o1777)
        GID['o'] = '0x17e'
        self.ns['o'] = {'devargs': 'allow_uid=%d' % UID_A}
        p = self.Peer(self, 'o', ['--gid', GID['o'], '--role', 'dup'])
        p.finish(60)
        if p.grep('REFUSED') != ['REFUSED 0']:
            raise Failure('a directory of another user with a policy: %s'
                          % p.grep('REFUSED'))
        if not any('belongs to uid 4205' in l and 'remove or replace' in l
                   for l in p.lines):
            raise Failure('no warning about the directory\'s owner')
        self.own_dir(0, 0, 0o700)

    def allowed_rogue(self):
        for n in 'ab':
            self.ns[n] = {'devargs': 'allow_uid=%d' % UID_A}
        self.ns['r'] = {'uid': UID_A, 'gid': UID_A, 'devargs': 'allow_uid=0'}
        self.own_dir(0, 0, 0o1777)
        self.rogue()

    def dir_modes(self):
        # (mode, devargs, what creating a device returns)
        cases = [(0o777, '', -EPERM), (0o1777, '', -EPERM),
                 (0o770, 'allow_gid=0', -EPERM), (0o1770, '', -EPERM),
                 (0o1770, 'allow_gid=0', 0), (0o1777, 'allow_uid=4201', 0),
                 (0o700, '', 0)]
        for i, (mode, devargs, want) in enumerate(cases):
            self.own_dir(0, 0, mode)
            name = 'd%d' % i
            GID[name] = '0x17%x' % i
            self.ns[name] = {'devargs': devargs}
            p = self.Peer(self, name, ['--gid', GID[name], '--role', 'dup'])
            p.finish(60)
            if p.grep('REFUSED') != ['REFUSED %d' % want]:
                raise Failure('directory mode %04o with "%s": %s, not %d' %
                              (mode, devargs, p.grep('REFUSED'), want))
        self.own_dir(0, 0, 0o700)

    def own_dir(self, uid, gid, mode):
        os.chown(self.dir, uid, gid)
        os.chmod(self.dir, mode)

    def run(self):
        shm_before = set(os.listdir('/dev/shm'))
        self.base = tempfile.mkdtemp(prefix='ism-shmns-')
        # Peers of other uids walk through base to the directory.
        os.chmod(self.base, 0o755)
        self.dir = os.path.join(self.base, 'fabric')
        os.mkdir(self.dir, 0o700)
        try:
            {'ns-pair': self.pair, 'ns-trio': self.trio,
             'ns-kill': lambda: self.kill(True),
             'ns-kill-all': self.kill_all,
             'ns-rootless': self.rootless,
             'ns-rogue': self.allowed_rogue,
             'ns-dir-modes': self.dir_modes,
             'ns-policy': self.policy,
             'ns-touch': self.touch,
             'ns-unmapped': self.unmapped,
             'ns-dir-owner': self.dir_owner}[self.scenario]()
            self.check_leftovers(shm_before)
        finally:
            for p in self.peers:
                p.kill_session()
            shutil.rmtree(self.base, ignore_errors=True)


def ns_init(a):
    """PID 1 of the namespaces: mounts, the peer, every orphan."""
    subprocess.run(['mount', '-t', 'tmpfs', '-o', 'mode=1777', 'ism-run',
                    '/run'], check=True)
    subprocess.run(['mount', '--bind', a.hostdir, a.inner], check=True)
    env = dict(os.environ, XDG_RUNTIME_DIR='/run')
    pid = os.fork()
    if pid == 0:
        if a.as_ids:
            uid, gid = [int(x) for x in a.as_ids.split(':')]
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
        os.execvpe(a.cmd[0], a.cmd, env)
    status = 1
    while True:
        try:
            p, st = os.wait()
        except ChildProcessError:
            break
        if p == pid:
            code = os.waitstatus_to_exitcode(st)
            status = code if code >= 0 else 128 - code
    return status


def unreachable_by_others(path):
    """The first directory on the way to path that a process of another
    uid cannot pass (no x for others, e.g. a tree cloned under /root), or
    None."""
    d = os.path.dirname(os.path.realpath(path))
    while True:
        if not os.stat(d).st_mode & 0o001:
            return d
        if d == '/':
            return None
        d = os.path.dirname(d)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == 'init':
        ap = argparse.ArgumentParser()
        ap.add_argument('init')
        ap.add_argument('hostdir')
        ap.add_argument('inner')
        ap.add_argument('--as', dest='as_ids')
        ap.add_argument('cmd', nargs=argparse.REMAINDER)
        a = ap.parse_args()
        if a.cmd[:1] == ['--']:
            a.cmd = a.cmd[1:]
        return ns_init(a)
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--peer', required=True, help='dpdk-ism-shm-peer')
    ap.add_argument('--tag', default='t', help='file-prefix tag')
    ap.add_argument('scenario', choices=['ns-pair', 'ns-trio', 'ns-kill',
                                         'ns-kill-all', 'ns-rootless',
                                         'ns-rogue', 'ns-dir-modes',
                                         'ns-policy', 'ns-touch',
                                         'ns-unmapped', 'ns-dir-owner'])
    args = ap.parse_args()
    args.peer = os.path.abspath(args.peer)
    for tool in ('unshare', 'setpriv', 'mount', 'timeout'):
        if shutil.which(tool) is None:
            print('SKIP: needs %s' % tool)
            return 77
    if os.geteuid() != 0 or subprocess.run(
            ['unshare', '--pid', '--mount', '--net', '--user', '--fork',
             'true'], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL).returncode != 0:
        print('SKIP: needs root and PID, mount, network and user '
              'namespaces')
        return 77
    # Peers of other host uids run the build's program and this script:
    # a tree they cannot reach is a property of where it was cloned, not
    # of the driver.
    if args.scenario in ('ns-rootless', 'ns-rogue', 'ns-policy', 'ns-touch',
                         'ns-unmapped'):
        for f in (args.peer, os.path.abspath(__file__)):
            d = unreachable_by_others(f)
            if d is not None:
                print('SKIP: uids %d and %d cannot reach %s (%s is not '
                      'searchable by others): run it from a tree they can '
                      'reach' % (UID_A, UID_B, f, d))
                return 77
    t0 = time.monotonic()
    try:
        NsTest(args).run()
    except (Failure, ism_eal.Error) as e:
        print('FAIL: %s' % e, flush=True)
        return 1
    print('PASS: %s in %.1f s' % (args.scenario, time.monotonic() - t0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
