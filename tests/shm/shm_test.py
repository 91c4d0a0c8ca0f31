#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Multi-process tests of the shm backend.

Starts real dpdk-ism-shm-peer processes, each under timeout(1) with its own
--file-prefix, all in a fresh rendezvous directory (mkdtemp: mode 0700)
that is removed at the end, follows what they print, kills some of them
with SIGKILL, and checks what is left afterwards: the rendezvous directory
must be empty (sockets of killed processes included) and /dev/shm must hold
nothing new of ours.

  shm_test.py --peer BIN [--tag TAG] SCENARIO

  pair           two processes stream both ways; a third one with the
                 GID of the first is refused
  trio           three processes, each streams to the two others
  rogue          a victim streams with an honest peer while a rogue tries
                 what it must not (see shm_rogue.c)
  kill-writer    the writer of a stream is killed with SIGKILL, then
                 restarted with the same GID; the receiver carries on
  kill-receiver  the same with the receiver killed
  kill-all       both ends of a stream are killed at once: only their
                 watchdogs can remove their sockets
  grants         a writer joins an owner that has 1500 DMBs for it and
                 few spare file descriptors

Exit status: 0 pass, 1 fail, 77 skip.
"""

import argparse
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
import ism_eal  # noqa: E402  (tests/lib)

PROC_TIMEOUT_S = 170
GID = {'a': '0x15a', 'b': '0x15b', 'c': '0x15c', 'r': '0x15f'}


class Failure(Exception):
    pass


class Peer:
    """One dpdk-ism-shm-peer process and the lines it printed."""

    def __init__(self, test, name, args):
        self.name = name
        self.pid = None
        cpu = test.cpus[len(test.peers) % len(test.cpus)]
        self.prefix = ism_eal.file_prefix(test.tag, 'shm', test.scenario,
                                          name)
        cmd = [test.peer_bin] + ism_eal.eal_args(
            cpu, self.prefix, mem_mb=128, telemetry=False) + [
            '--', '--dir', test.dir] + args
        # stdin: a peer started with --hold finishes only once the driver
        # closed it (release()), whatever its speed.
        self.proc = ism_eal.Process(cmd, name, PROC_TIMEOUT_S,
                                    prefix=self.prefix, stdin=True,
                                    echo=True)
        self.lines = self.proc.lines
        test.peers.append(self)

    @property
    def eof(self):
        return self.proc.eof

    def wait_line(self, prefix, timeout=60, pred=None):
        """The first line starting with prefix (and matching pred)."""
        try:
            return self.proc.line(self.proc.wait_for(
                '^' + re.escape(prefix), timeout, pred=pred))
        except ism_eal.Error:
            raise Failure('%s: no "%s" line' % (self.name, prefix))

    def ready(self):
        self.pid = int(self.wait_line('READY').split()[2])
        return self

    def release(self):
        """End the hold phase of a --hold peer: it may finish now."""
        self.proc.close_stdin()
        return self

    def kill9(self):
        return self.proc.kill()

    def finish(self, timeout=PROC_TIMEOUT_S):
        self.release()
        try:
            return self.proc.wait(timeout)
        except ism_eal.Error as e:
            raise Failure(str(e))

    def kill_session(self):
        """SIGKILL timeout(1) and the peer (not the watchdogs: they have
        sessions of their own and exit with the peer), reap them and
        remove their runtime directories."""
        self.proc.cleanup()

    def expect_pass(self):
        rc = self.finish()
        if rc != 0 or not any(l == 'PASS' for l in self.lines):
            raise Failure('%s exited with %d' % (self.name, rc))

    def grep(self, prefix):
        return [l for l in self.lines if l.startswith(prefix)]


class Test:
    def __init__(self, args):
        self.peer_bin = args.peer
        self.tag = args.tag
        self.scenario = args.scenario
        self.cpus = sorted(os.sched_getaffinity(0))
        self.peers = []
        self.dir = None

    def node(self, name, peers, *extra):
        return Peer(self, name, ['--gid', GID[name], '--peers',
                                 ','.join(GID[p] for p in peers),
                                 '--seed', str(len(self.peers) + 1)] +
                    list(extra))

    # Scenarios.

    # Phases are ordered by the driver, never by how fast a peer runs: a
    # peer another one needs alive is started with --hold and streams
    # until release(); release every held peer before waiting for one (each
    # waits for the DONE of the others).

    def pair(self):
        a = self.node('a', 'b', '--msgs', '2000', '--nocopy',
                      '--hold').ready()
        b = self.node('b', 'a', '--msgs', '2000', '--nocopy',
                      '--hold').ready()
        # a is held: its GID is live while dup tries to take it.
        dup = Peer(self, 'dup', ['--gid', GID['a'], '--role', 'dup'])
        if dup.finish(60) != 0:
            raise Failure('a second device with a live GID was not refused')
        if not any('already used by a live device' in l for l in dup.lines):
            raise Failure('the refusal does not say why')
        # Each waits for the other's DONE: release both, then wait.
        a.release()
        b.release()
        a.expect_pass()
        b.expect_pass()

    def trio(self):
        nodes = [self.node(n, [p for p in 'abc' if p != n], '--msgs', '800')
                 for n in 'abc']
        for n in nodes:
            n.ready()
        for n in nodes:
            n.expect_pass()

    def rogue(self):
        # Victim and honest peer stream until the rogue has finished all
        # its attacks (it needs both alive: it looks for their sockets).
        victim = Peer(self, 'a', ['--gid', GID['a'], '--peers', GID['b'],
                                  '--rogue', GID['r'], '--msgs', '1500',
                                  '--hold'])
        victim.ready()
        honest = self.node('b', 'a', '--msgs', '1500', '--hold').ready()
        rogue = Peer(self, 'r', ['--gid', GID['r'], '--role', 'rogue',
                                 '--victim', GID['a'], '--honest', GID['b']])
        rogue.expect_pass()
        if victim.eof or honest.eof:
            raise Failure('a held peer ended before its release')
        victim.release()
        honest.release()
        victim.expect_pass()
        honest.expect_pass()
        if victim.grep('BYE_RACE') != ['BYE_RACE 0']:
            raise Failure('the answer of a peer that left at once was lost')
        errors, violations = [int(x) for x in
                              victim.grep('PROTOCOL_ERRORS')[0].split()[1::2]]
        if violations == 0 or errors < violations:
            raise Failure('victim counted %d protocol errors for %d '
                          'violations' % (errors, violations))

    def kill(self, victim_sends):
        """Kill the writer (victim_sends) or the receiver mid-stream."""
        s_send, v_send = ('0', '1') if victim_sends else ('1', '0')
        forever = str(10 ** 12)
        surv = self.node('a', 'b', '--send', s_send, '--survive', '1',
                         '--msgs', '600', '--msgs-first', forever,
                         '--fd-mark', '150', '--nocopy').ready()
        vict = self.node('b', 'a', '--send', v_send, '--msgs',
                         forever).ready()
        surv.wait_line('FDS session 1')
        t_kill = vict.kill9()
        vict.finish()
        lost = surv.wait_line('LOST')
        t_event = int(lost.split()[3])
        print('survivor saw the loss %.1f ms after SIGKILL (event time, '
              'informational)' % ((t_event - t_kill) / 1e6), flush=True)
        again = self.node('b', 'a', '--send', v_send, '--msgs',
                          '600').ready()
        again.expect_pass()
        surv.expect_pass()
        marks = [l.split()[3] for l in surv.grep('FDS session')]
        if len(marks) != 2 or marks[0] != marks[1]:
            raise Failure('survivor fds differ between sessions: %s' % marks)

    def kill_all(self):
        forever = str(10 ** 12)
        a = self.node('a', 'b', '--msgs', forever).ready()
        b = self.node('b', 'a', '--msgs', forever).ready()
        a.wait_line('FDS session 1')
        b.wait_line('FDS session 1')
        a.kill9()
        b.kill9()
        a.finish()
        b.finish()

    def grants(self):
        owner = Peer(self, 'a', ['--gid', GID['a'], '--role', 'grant-owner',
                                 '--peers', GID['b'], '--msgs', '1500'])
        owner.ready()
        owner.wait_line('OWNER')
        writer = Peer(self, 'b', ['--gid', GID['b'], '--role',
                                  'grant-writer', '--peers', GID['a'],
                                  '--msgs', '1500'])
        writer.expect_pass()
        owner.expect_pass()

    # Set-up and checks around a scenario.

    def run(self):
        shm_before = set(os.listdir('/dev/shm'))
        self.dir = tempfile.mkdtemp(prefix='ism-shm-')
        try:
            {'pair': self.pair, 'trio': self.trio, 'rogue': self.rogue,
             'kill-writer': lambda: self.kill(True),
             'kill-receiver': lambda: self.kill(False),
             'kill-all': self.kill_all,
             'grants': self.grants}[self.scenario]()
            self.check_leftovers(shm_before)
        finally:
            for p in self.peers:
                p.kill_session()
            shutil.rmtree(self.dir, ignore_errors=True)

    def check_leftovers(self, shm_before):
        # Watchdogs of killed processes unlink asynchronously.
        deadline = time.monotonic() + 10
        while ((os.listdir(self.dir) or ism_eal.pids_with(self.dir)) and
               time.monotonic() < deadline):
            time.sleep(0.05)
        left = os.listdir(self.dir)
        if left:
            raise Failure('left in the rendezvous directory: %s' % left)
        stray = [pid for pid in ism_eal.pids_with(self.dir)]
        if stray:
            raise Failure('processes left (watchdogs?): %s' % stray)
        new = set(os.listdir('/dev/shm')) - shm_before
        ours = [n for n in new if 'ism' in n.lower()]
        if ours:
            raise Failure('left in /dev/shm: %s' % ours)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--peer', required=True, help='dpdk-ism-shm-peer')
    ap.add_argument('--tag', default='t', help='file-prefix tag')
    ap.add_argument('scenario', choices=['pair', 'trio', 'rogue',
                                         'kill-writer', 'kill-receiver',
                                         'kill-all', 'grants'])
    args = ap.parse_args()
    if not os.path.isdir('/proc/self/fd') or shutil.which('timeout') is None:
        print('SKIP: needs /proc and timeout(1)')
        return 77
    t0 = time.monotonic()
    try:
        Test(args).run()
    except (Failure, ism_eal.Error) as e:
        print('FAIL: %s' % e, flush=True)
        return 1
    print('PASS: %s in %.1f s' % (args.scenario, time.monotonic() - t0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
