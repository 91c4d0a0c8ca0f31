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
  kill-all       three processes streaming to each other are killed at
                 once: only their reapers can remove their sockets
  grants         a writer joins an owner that has 1500 DMBs for it and
                 few spare file descriptors
  fd-limit       a device at its fd limit sees a device join: it refuses
                 it, its control calls still answer, its log stays short,
                 and it accepts the next one once it has fds again
  stopped-peer   a device joins while the only other one is stopped
                 (SIGSTOP): the half-open connection ends at the handshake
                 deadline and later calls do not wait for it; once the
                 stopped one runs again, the two connect (regression: they
                 stayed apart for good); a peer that stops once up is
                 waited for once, not by every call
  mass-departure three peers, each with 500 DMBs mapped by a victim that
                 polls no event, are killed at once: the victim gets a
                 DEV_DISABLED event per peer, DMB events posted or counted,
                 and its control thread's turns stay within their budget
  map-limit      a writer with no mapping left under vm.max_map_count but
                 40: the owner's registrations beyond get -ENOMEM, the
                 connection stays, and the next one works once mappings
                 are free again
  log-flood      600 connections that each send a malformed message, then
                 100 silent ones: the victim's log lines of each kind, and
                 the counts of the lines it held back, add up to its
                 counters, within the rate limit
  impostor-gid   a socket named after the GID of a live device, at another
                 slot, answers handshakes as that device: a device that
                 joins ignores it (its GID is not claimed for it) and
                 grants it no DMB of the device (regression: it took it
                 for a second peer with that GID)
  impostor-slot  the same with a socket at the live device's slot under
                 another GID: it must not take over the slot
  dir-lock       another process holds the directory's flock: a device
                 that joins gives up after its bound (-EBUSY) instead of
                 blocking, and one joins once the lock is free
                 (regression: it blocked as long as the lock)
  crowd          16 silent connections kept pending on a device: one that
                 joins meanwhile is refused, and joins once they are gone
                 (regression: it never tried again)
  retry-backoff  a device that closes every connection at once: a device
                 that joins connects again later and later, doubling from
                 50 ms up to 1 s (regression: 50 ms every time, 14
                 connections a second for ever)
  sba-storm      a peer raises every signal of the SBA it was given, with
                 changing patterns: the victim's signal polls each end and
                 report none of it
  race           four processes register, move and unregister at once
                 (shm_race.c): every control call succeeds, no peer is
                 found unresponsive

Exit status: 0 pass, 1 fail, 77 skip.
"""

import argparse
import fcntl
import os
import re
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
import ism_eal  # noqa: E402  (tests/lib)

PROC_TIMEOUT_S = 170
# Only stops a hang: a script command answers at once or after a peer's
# 5 s deadline.
CMD_TIMEOUT_S = 60
GID = {'a': '0x15a', 'b': '0x15b', 'c': '0x15c', 'r': '0x15f',
       'f': '0x16f', 'j': '0x16a', 'k': '0x16b', 'v': '0x16c',
       's': '0x16d', 'w': '0x16e'}
# The PMD's log rate limit (drivers/raw/ism/ism_log_rl.h) and the control
# thread's budget per turn (ISM_SHM_LOOP_BUDGET + ISM_SHM_WORK_DEPART, ism_shm_loop.h).
LOG_BURST, LOG_WINDOW_S = 10, 5
TURN_WORK_MAX = 64 + 16
ENETUNREACH, ENOMEM, EBUSY = 101, 12, 16


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

    def wait_line(self, prefix, timeout=60, pred=None, start=0):
        """The first line from start on starting with prefix (and
        matching pred)."""
        try:
            return self.proc.line(self.proc.wait_for(
                '^' + re.escape(prefix), timeout, start=start, pred=pred))
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

    def host_pid_of_peer(self):
        """The peer's pid as this driver sees it (from its READY line)."""
        return self.pid

    def stop(self):
        """SIGSTOP, and wait until every thread has stopped: the signal
        takes effect asynchronously (a thread running on another CPU may
        still answer a request meanwhile)."""
        pid = self.host_pid_of_peer()
        os.kill(pid, signal.SIGSTOP)
        deadline = time.monotonic() + CMD_TIMEOUT_S
        while time.monotonic() < deadline:
            states = []
            for t in os.listdir('/proc/%d/task' % pid):
                with open('/proc/%d/task/%s/stat' % (pid, t)) as f:
                    states.append(f.read().rsplit(')', 1)[1].split()[0])
            if all(st == 'T' for st in states):
                return
            time.sleep(0.01)
        raise Failure('%s did not stop' % self.name)

    def cont(self):
        os.kill(self.host_pid_of_peer(), signal.SIGCONT)

    def finish(self, timeout=PROC_TIMEOUT_S):
        self.release()
        try:
            return self.proc.wait(timeout)
        except ism_eal.Error as e:
            raise Failure(str(e))

    def kill_session(self):
        """SIGKILL timeout(1) and the peer (not the reapers: they have
        sessions of their own and exit with the peer), reap them and
        remove their runtime directories."""
        self.proc.cleanup()

    def expect_pass(self):
        rc = self.finish()
        if rc != 0 or not any(l == 'PASS' for l in self.lines):
            raise Failure('%s exited with %d' % (self.name, rc))

    def grep(self, prefix):
        return [l for l in self.lines if l.startswith(prefix)]

    def cmd(self, line):
        """A command to a script peer; its answer line ("R <word> ...")."""
        start = self.proc.count()
        self.proc.write_stdin(line)
        return self.wait_line('R ' + line.split()[0], CMD_TIMEOUT_S,
                              start=start)

    def cmd_int(self, line):
        """The last number of a command's answer."""
        return int(self.cmd(line).split()[-1])

    def quit(self):
        """A script peer finishes: it must pass."""
        self.proc.write_stdin('quit')
        self.expect_pass()


class Test:
    # How a peer is started (shm_ns_test.py: in namespaces of its own).
    Peer = Peer

    def __init__(self, args):
        self.peer_bin = args.peer
        self.tag = args.tag
        self.scenario = args.scenario
        self.cpus = sorted(os.sched_getaffinity(0))
        self.peers = []
        self.dir = None

    def script(self, name):
        """A device that runs the driver's commands (shm_script.c)."""
        return self.Peer(self, name, ['--gid', GID[name], '--role',
                                      'script']).ready()

    def node(self, name, peers, *extra):
        return self.Peer(self, name, ['--gid', GID[name], '--peers',
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
        dup = self.Peer(self, 'dup', ['--gid', GID['a'], '--role', 'dup'])
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
        victim = self.Peer(self, 'a', ['--gid', GID['a'], '--peers',
                                       GID['b'], '--rogue', GID['r'],
                                       '--msgs', '1500', '--hold'])
        victim.ready()
        honest = self.node('b', 'a', '--msgs', '1500', '--hold').ready()
        rogue = self.Peer(self, 'r', ['--gid', GID['r'], '--role', 'rogue',
                                      '--victim', GID['a'], '--honest',
                                      GID['b']])
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
        """No process of the fabric survives to remove a socket: the
        directory must still end up empty (check_leftovers)."""
        forever = str(10 ** 12)
        nodes = [self.node(n, [p for p in 'abc' if p != n], '--msgs',
                           forever) for n in 'abc']
        for n in nodes:
            n.ready()
        for n in nodes:
            n.wait_line('FDS session 1')
        socks = [n for n in os.listdir(self.dir) if n.endswith('.sock')]
        if len(socks) != 3:
            raise Failure('expected 3 sockets before the kill: %s' % socks)
        # All stopped first, then all killed: a node still running while
        # another dies would see the loss and exit on its own (a test of
        # how fast the kills follow each other, not of the reapers).
        for n in nodes:
            n.stop()
        for n in nodes:
            n.kill9()
        for n in nodes:
            # timeout(1) reports its command's SIGKILL as 128 + 9.
            rc = n.finish()
            if rc not in (137, -signal.SIGKILL):
                raise Failure('%s was not killed: exit status %d' %
                              (n.name, rc))

    def grants(self):
        owner = self.Peer(self, 'a', ['--gid', GID['a'], '--role',
                                      'grant-owner', '--peers', GID['b'],
                                      '--msgs', '1500'])
        owner.ready()
        owner.wait_line('OWNER')
        writer = self.Peer(self, 'b', ['--gid', GID['b'], '--role',
                                       'grant-writer', '--peers', GID['a'],
                                       '--msgs', '1500'])
        writer.expect_pass()
        owner.expect_pass()

    def fd_limit(self):
        v = self.script('v')
        if v.cmd('reg %s 2' % GID['v']) != 'R reg 2 0':
            raise Failure('cannot register two DMBs')
        v.cmd('fdlimit')
        j = self.script('j')
        if j.cmd_int('xstat peers') != 0:
            raise Failure('a device without fds took a connection')
        # Regression: its control thread spun on accept() holding the
        # lock, and each of these calls hung.
        if v.cmd_int('query %s' % GID['j']) != -ENETUNREACH:
            raise Failure('query of the refused device')
        if v.cmd_int('xstat connections_refused') < 1:
            raise Failure('refused connection not counted')
        if v.cmd('reg %s' % GID['v']) != 'R reg 0 %d' % -ENOMEM:
            raise Failure('register without an fd for its memfd')
        if v.cmd_int('event %s' % GID['v']) != 0 or \
                v.cmd_int('unreg') != 0:
            raise Failure('control calls at the fd limit')
        v.cmd('fdrestore')
        k = self.script('k')
        if v.cmd_int('wait-peer %s' % GID['k']) != 0:
            raise Failure('no connection accepted with fds again')
        for p in (v, j, k):
            p.quit()
        refused = [l for l in v.lines if 'refused a connection' in l and
                   'suppressed' not in l]
        if len(refused) > LOG_BURST:
            raise Failure('%d log lines for refused connections' %
                          len(refused))

    def stopped_peer(self):
        a = self.script('a')
        try:
            a.stop()
            # Its join waits for a until the handshake deadline.
            b = self.script('b')
            # (b connects again meanwhile, to be dropped again at the
            # deadline while a is stopped: pending 0 or 1.)
            if b.cmd_int('xstat handshakes_expired') < 1:
                raise Failure('half-open connection to a stopped peer kept')
            for _ in range(2):
                if b.cmd('reg %s' % GID['a']) != 'R reg 1 0':
                    raise Failure('register for a stopped peer')
        finally:
            a.cont()
        if any('did not answer' in l for l in b.lines):
            raise Failure('control calls waited for a dropped connection')
        # Only b, which joined after a, connects: it must try again, or
        # the two never meet while both live (a stopped or starved peer
        # is all it takes: a net_ism link between them never came up).
        if b.cmd_int('wait-peer %s' % GID['a']) != 0 or \
                a.cmd_int('wait-peer %s' % GID['b']) != 0:
            raise Failure('b and a did not connect once a ran again')
        # A peer that stops answering once up: waited for once.
        c = self.script('c')
        if c.cmd_int('wait-xstat peers 2') != 2:
            raise Failure('c did not join a and b')
        try:
            a.stop()
            for _ in range(2):
                if c.cmd('reg %s' % GID['a']) != 'R reg 1 0':
                    raise Failure('register for a stopped peer')
            if c.cmd_int('xstat peers_unresponsive') != 1:
                raise Failure('stopped peer not marked unresponsive')
        finally:
            a.cont()
        if c.cmd_int('wait-xstat peers_unresponsive 0') != 0:
            raise Failure('resumed peer still unresponsive')
        waits = [l for l in c.lines if 'did not answer' in l]
        if len(waits) > 1:
            raise Failure('%d control calls waited for a stopped peer' %
                          len(waits))
        for p in (a, b, c):
            p.quit()

    def mass_departure(self):
        per = 500
        v = self.script('v')
        peers = [self.script(n) for n in 'abc']
        for p in peers:
            if p.cmd('reg %s %d' % (GID['v'], per)) != 'R reg %d 0' % per:
                raise Failure('%s: cannot register %d DMBs' % (p.name, per))
        for p in peers:
            p.kill9()
        for p in peers:
            p.finish()
        if v.cmd_int('wait-xstat peers 0') != 0:
            raise Failure('departures not seen')
        total, buf, gone, info = [int(x) for x in
                                  v.cmd('events').split()[2:]]
        left = {int(GID[p.name], 16) for p in peers}
        for l in v.grep('E DISABLED'):
            left.discard(int(l.split()[2], 16))
        if gone != len(peers) or left:
            raise Failure('%d departures reported for %d peers' %
                          (gone, len(peers)))
        if buf + info != per * len(peers):
            raise Failure('%d DMB events posted + %d summarised for %d '
                          'DMBs' % (buf, info, per * len(peers)))
        work = v.cmd_int('xstat ctl_turn_work_max')
        if work > TURN_WORK_MAX:
            raise Failure('a turn of the control thread did %d units of '
                          'work' % work)
        print('victim: %d events, %d DMB events posted, %d summarised, '
              'most work in a turn %d' % (total, buf, info, work),
              flush=True)
        v.quit()

    def map_limit(self):
        v = self.script('v')
        a = self.script('a')
        if v.cmd_int('mapfill 40') <= 0:
            raise Failure('cannot fill the address space')
        ok, first = [int(x) for x in
                     a.cmd('reg %s 100' % GID['v']).split()[2:]]
        if not 0 < ok < 100 or first != -ENOMEM:
            raise Failure('100 grants to a writer with 40 mappings left: '
                          '%d registered, first error %d' % (ok, first))
        if a.cmd_int('xstat peers') != 1 or \
                v.cmd_int('query %s' % GID['a']) != 0:
            raise Failure('the connection did not stay')
        v.cmd('mapfree')
        if a.cmd('reg %s 1' % GID['v']) != 'R reg 1 0':
            raise Failure('no grant once mappings are free')
        v.quit()
        a.quit()

    def log_flood(self):
        v = self.script('v')
        t0 = time.monotonic()
        f = self.Peer(self, 'f', ['--gid', GID['f'], '--role', 'flood',
                                  '--victim', GID['v'], '--msgs', '600'])
        f.expect_pass()
        errors = v.cmd_int('xstat protocol_errors')
        refused = v.cmd_int('xstat connections_refused')
        v.quit()
        # Counts held back are logged when the device closes at last.
        limit = LOG_BURST * (int((time.monotonic() - t0) / LOG_WINDOW_S)
                             + 2)
        # (a line, the format of its call site in the count of the lines
        # held back, the counter)
        for what, site, n in (('malformed message', 'protocol error of',
                               errors),
                              ('refused a connection',
                               'refused a connection', refused)):
            printed = len([l for l in v.lines if what in l and
                           'similar lines suppressed' not in l])
            held = [int(l.split(' similar lines suppressed')[0].split()[-1])
                    for l in v.lines if site in l and
                    'similar lines suppressed' in l]
            print('victim: "%s": %d counted, %d lines, %d held back' %
                  (what, n, printed, sum(held)), flush=True)
            if printed + sum(held) != n:
                raise Failure('"%s": %d lines + %d held back for %d' %
                              (what, printed, sum(held), n))
            if printed > limit:
                raise Failure('"%s": %d lines, rate limit %d' %
                              (what, printed, limit))
        if errors != 600:
            raise Failure('%d protocol errors for 600 malformed '
                          'messages' % errors)

    def impostor(self, role):
        v = self.script('v')
        im = self.Peer(self, 'r', ['--gid', GID['r'], '--role', role,
                                   '--victim', GID['v'], '--hold']).ready()
        im.wait_line('IMPOSTOR listening')
        j = self.script('j')
        # v and the impostor's own device (GID r), not its socket.
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
        if not any('is not claimed for it' in l for l in j.lines):
            raise Failure('the joiner did not say why it ignored a socket')
        if v.cmd_int('query %s' % GID['j']) != 0:
            raise Failure('v does not know j')
        v.quit()
        j.quit()

    def dir_lock(self):
        fd = os.open(self.dir, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            held = self.Peer(self, 'j', ['--gid', GID['j'], '--role', 'dup'])
            held.finish(60)
            if held.grep('REFUSED') != ['REFUSED %d' % -EBUSY]:
                raise Failure('a join under a held lock: %s' %
                              held.grep('REFUSED'))
        finally:
            os.close(fd)
        self.script('v').quit()

    def crowd(self):
        v = self.script('v')
        crowd = self.Peer(self, 'f', ['--gid', GID['f'], '--role', 'crowd',
                                      '--victim', GID['v'], '--hold']).ready()
        crowd.wait_line('CROWD holding')
        # A join slips in if it meets the moment v drops the crowd at its
        # handshake deadline and the crowd connects again: try another.
        for name in 'jka':
            if v.cmd_int('wait-xstat handshakes_pending 16') != 16:
                raise Failure('the crowd is not pending on v')
            j = self.script(name)
            if j.cmd_int('xstat peers') == 1:	# the crowd's device only
                break
            j.quit()
        else:
            raise Failure('no join met the crowd')
        if v.cmd_int('query %s' % GID[name]) != -ENETUNREACH:
            raise Failure('v took %s while the crowd was pending' % name)
        crowd.release()
        crowd.expect_pass()
        # (The crowd's device has left: j's peer is v, or none.)
        if j.cmd_int('wait-peer %s' % GID['v']) != 0 or \
                v.cmd_int('query %s' % GID[name]) != 0:
            raise Failure('%s did not join v once the crowd was gone' %
                          name)
        if not any('busy with other handshakes' in l for l in j.lines):
            raise Failure('%s did not say why it was refused' % name)
        v.quit()
        j.quit()

    def retry_backoff(self):
        sl = self.Peer(self, 's', ['--gid', GID['s'], '--role', 'slammer',
                                   '--hold']).ready()
        sl.wait_line('SLAM listening')
        j = self.script('j')
        # The 8th connection comes after 7 back-offs: 50 ms doubling to
        # 1 s (SHM_RETRY_MIN_MS, SHM_RETRY_MAX_MS).
        sl.wait_line('SLAM 8 ', timeout=CMD_TIMEOUT_S)
        j.quit()
        sl.release()
        sl.expect_pass()
        gaps = [int(l.split()[2]) for l in sl.grep('SLAM ')
                if l.split()[1].isdigit()][1:8]
        print('intervals between connections (ms): %s' % gaps, flush=True)
        # A lower bound only: a busy machine makes them longer.
        for k, ms in enumerate(gaps):
            least = min(50 << k, 1000)
            if ms < least * 9 // 10:
                raise Failure('connection %d came %d ms after the one '
                              'before: the back-off is %d ms' %
                              (k + 2, ms, least))

    def sba_storm(self):
        v = self.script('v')
        w = self.Peer(self, 'w', ['--gid', GID['w'], '--role', 'storm',
                                  '--victim', GID['v'], '--hold'])
        w.ready()
        w.wait_line('STORM raising')
        for _ in range(3):
            n, got = [int(x) for x in v.cmd('poll 100000').split()[2:]]
            if got != 0:
                raise Failure('%d signals of a peer without DMBs were '
                              'reported' % got)
        # The storm's device and its own connection, as before.
        if v.cmd_int('xstat peers') != 2:
            raise Failure('the victim lost a peer')
        w.release()
        w.expect_pass()
        v.quit()

    def race(self, mover=False):
        names = 'abcv'
        racers = [self.Peer(self, n, ['--gid', GID[n], '--role', 'race',
                                      '--peers', ','.join(GID[p] for p in
                                                          names if p != n),
                                      '--msgs', '150'] +
                            (['--survive', '1'] if mover else []))
                  for n in names]
        for r in racers:
            r.ready()
        for r in racers:
            r.expect_pass()
        for r in racers:
            if any('has not answered' in l for l in r.lines):
                raise Failure('%s found a peer unresponsive' % r.name)
            print('%s: %s' % (r.name, r.grep('RACE')[0]), flush=True)

    # Set-up and checks around a scenario.

    def run(self):
        shm_before = set(os.listdir('/dev/shm'))
        self.dir = tempfile.mkdtemp(prefix='ism-shm-')
        try:
            {'pair': self.pair, 'trio': self.trio, 'rogue': self.rogue,
             'kill-writer': lambda: self.kill(True),
             'kill-receiver': lambda: self.kill(False),
             'kill-all': self.kill_all,
             'grants': self.grants,
             'fd-limit': self.fd_limit,
             'stopped-peer': self.stopped_peer,
             'mass-departure': self.mass_departure,
             'map-limit': self.map_limit,
             'log-flood': self.log_flood,
             'impostor-gid': lambda: self.impostor('impostor-gid'),
             'impostor-slot': lambda: self.impostor('impostor-slot'),
             'dir-lock': self.dir_lock,
             'crowd': self.crowd,
             'retry-backoff': self.retry_backoff,
             'sba-storm': self.sba_storm,
             'race': self.race,
             'race-mover': lambda: self.race(True)}[self.scenario]()
            self.check_leftovers(shm_before)
        finally:
            for p in self.peers:
                p.kill_session()
            shutil.rmtree(self.dir, ignore_errors=True)

    def check_leftovers(self, shm_before):
        # Reapers of killed processes unlink asynchronously.
        deadline = time.monotonic() + 10
        while ((os.listdir(self.dir) or ism_eal.pids_with(self.dir)) and
               time.monotonic() < deadline):
            time.sleep(0.05)
        left = os.listdir(self.dir)
        if left:
            raise Failure('left in the rendezvous directory: %s' % left)
        stray = [pid for pid in ism_eal.pids_with(self.dir)]
        if stray:
            raise Failure('processes left (reapers?): %s' % stray)
        new = set(os.listdir('/dev/shm')) - shm_before
        # (ism-ivshm-*: the ivshmem tests', which may run meanwhile.)
        ours = [n for n in new if 'ism' in n.lower() and
                'ivshm' not in n.lower()]
        if ours:
            raise Failure('left in /dev/shm: %s' % ours)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--peer', required=True, help='dpdk-ism-shm-peer')
    ap.add_argument('--tag', default='t', help='file-prefix tag')
    ap.add_argument('scenario', choices=['pair', 'trio', 'rogue',
                                         'kill-writer', 'kill-receiver',
                                         'kill-all', 'grants', 'fd-limit',
                                         'stopped-peer', 'mass-departure',
                                         'map-limit', 'log-flood',
                                         'impostor-gid', 'impostor-slot',
                                         'dir-lock', 'crowd',
                                         'retry-backoff', 'sba-storm',
                                         'race', 'race-mover'])
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
