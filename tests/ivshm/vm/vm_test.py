#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The ivshmem backend between QEMU guests and host processes.

Guests (TCG, emulated intel-iommu, PVH vmlinux, the kernel and vfio modules
of tests/bus_ism/vm/prepare.sh) get an ivshmem-plain function backed by a
file in /dev/shm; their /init (guest-init.sh) binds it to vfio-pci and runs
a plan of DPDK programs over the ism bus (-a ism:<address>,fabric=ivshmem).
Host processes map the same file (vdev ism_ivshm,path=). The guests' serial
consoles come here line by line; phases follow what the members print.

  vm_test.py --peer BIN --fwd BIN --tag TAG SCENARIO

  fabric      two guests and a host process stream checksummed messages to
              each other; one guest's QEMU is killed with SIGKILL
              mid-stream: the others see it gone, their moves to it fail,
              their own DMBs stay theirs; the guest boots again, rejoins,
              every stream resumes, all finish with every message checked
  guest-host  one guest and host processes: the API across the boundary
              (guest client, host server), dpdk-ism_fwd forwarding a pcap
              from the host through the guest and back (byte-identical,
              in order), and a host member scribbling over the shared
              tables while a guest and a host member stream (they neither
              crash nor hang)

Guests run with -smp 1,maxcpus=2: with maxcpus 1 QEMU's TCG runs without
its parallel mode and a guest's atomic instructions are not atomic for the
other members (measured: 1.3 million of 33 million shared increments
lost). Skips (77) unless prepare.sh was run, and in sanitizer builds.
Exit status 0 pass, 1 fail.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ivshm_test as it  # noqa: E402 (the host-side Peer and helpers)

VM_DIR = os.environ.get('ISM_VM_DIR', '/var/tmp/dpdk-ism-vm')
VM_TIMEOUT_S = 450
REGION_SIZE = 64 << 20
# TCG guests on a loaded host: their control threads may not run for a
# while; the fabric's liveness timeout is set by the host member that
# creates it.
LIVENESS_MS = 3000
PMDS = '/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0'
# Debian's DPDK loads these plugins from its directory on the host; in the
# guest dpdk-ism_fwd gets them with -d: the ring port and mempool driver.
RING_PMD = PMDS + '/librte_net_ring.so.23'
MEMPOOL_PMD = PMDS + '/librte_mempool_ring.so.23'
GUEST_EAL = '-l 0 --no-huge -m 256 --no-telemetry'


class Skip(Exception):
    pass


class Guest:
    """One QEMU guest; its console lines, killable with SIGKILL."""

    def __init__(self, vt, name, role):
        self.name = name
        self.lines = []
        self.eof = False
        self.cv = threading.Condition()
        cmd = ['qemu-system-x86_64', '-machine', 'q35,accel=tcg',
               '-cpu', 'max', '-m', '512', '-smp', '1,maxcpus=2',
               '-nodefaults', '-display', 'none', '-serial', 'stdio',
               '-no-reboot', '-device', 'intel-iommu,aw-bits=48',
               '-object', 'memory-backend-file,id=ivmem,share=on,'
               'mem-path=%s,size=%d' % (vt.region, REGION_SIZE),
               '-device', 'ivshmem-plain,memdev=ivmem',
               '-kernel', os.path.join(VM_DIR, 'vmlinux'),
               '-initrd', vt.initrd, '-append',
               # no_timer_check: on a loaded host the kernel's timer
               # check under TCG can fail and, with interrupt remapping,
               # panic ("timer doesn't work through Interrupt-remapped
               # IO-APIC", seen in the bus's VM test).
               'console=ttyS0 panic=-1 quiet intel_iommu=on no_timer_check '
               'vmtest.role=%s' % role]
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        # Bounded like every process of the tests.
        self.timer = threading.Timer(VM_TIMEOUT_S, self.kill)
        self.timer.start()
        vt.guests.append(self)

    def _read(self):
        for raw in self.proc.stdout:
            line = raw.decode(errors='replace').rstrip('\r\n').strip('\r')
            print('[%s] %s' % (self.name, line), flush=True)
            with self.cv:
                self.lines.append(line)
                self.cv.notify_all()
        with self.cv:
            self.eof = True
            self.cv.notify_all()

    def wait_line(self, prefix, timeout=VM_TIMEOUT_S, pred=None, start=0):
        deadline = time.monotonic() + timeout
        i = start
        with self.cv:
            while True:
                while i < len(self.lines):
                    line = self.lines[i]
                    i += 1
                    if line.startswith(prefix) and (pred is None or
                                                    pred(line)):
                        return i - 1, line
                left = deadline - time.monotonic()
                if self.eof or left <= 0:
                    raise it.Failure('%s: no "%s" line on the console'
                                     % (self.name, prefix))
                self.cv.wait(left)

    def count(self):
        with self.cv:
            return len(self.lines)

    def kill(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)

    def finish(self):
        """Wait until the guest powered itself off; its run time."""
        rc = self.proc.wait(VM_TIMEOUT_S)
        self.timer.cancel()
        self.reader.join(10)
        return rc, time.monotonic() - self.t0

    def check_clean(self):
        bad = [l for l in self.lines if l.startswith('FAIL')]
        if bad:
            raise it.Failure('%s: %s' % (self.name, bad[0]))


class VmTest(it.Test):
    def __init__(self, args):
        self.peer_bin = os.path.abspath(args.peer)
        self.fwd_bin = os.path.abspath(args.fwd)
        self.tag = args.tag
        self.scenario = 'vm-' + args.scenario
        self.ncpu = max(1, len(os.sched_getaffinity(0)))
        self.peers = []
        self.guests = []
        self.procs = []
        self.dir = tempfile.mkdtemp(prefix='ism-ivshm-vm.')
        # QEMU's memory backend and the host members share this file.
        self.shm = tempfile.mkdtemp(prefix='ism-ivshm-vm.', dir='/dev/shm')
        self.region = os.path.join(self.shm, 'region')
        self.initrd = os.path.join(self.dir, 'initrd.gz')

    def host(self, name, gid, args, liveness=LIVENESS_MS):
        return it.Peer(self, name, gid, args, liveness).ready()

    def cleanup(self):
        for g in self.guests:
            g.timer.cancel()
            g.kill()
            g.proc.wait()
        for p in self.procs:
            p.cleanup()
        super().cleanup()
        shutil.rmtree(self.shm, ignore_errors=True)

    def build_initrd(self, plans):
        """busybox, vfio modules, the programs with their libraries at
        their host paths, the net_ring plugin, the plans."""
        root = os.path.join(self.dir, 'root')
        for d in ('bin', 'sbin', 'proc', 'sys', 'dev', 'run', 'tmp', 'var',
                  'lib/modules', 'plans'):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        os.symlink('/run', os.path.join(root, 'var/run'))
        shutil.copy('/bin/busybox', os.path.join(root, 'bin/busybox'))
        shutil.copy(os.path.join(HERE, 'guest-init.sh'),
                    os.path.join(root, 'init'))
        shutil.copytree(os.path.join(VM_DIR, 'modules/lib/modules'),
                        os.path.join(root, 'lib/modules'),
                        dirs_exist_ok=True)
        files = set()
        for binary in (self.peer_bin, self.fwd_bin, RING_PMD, MEMPOOL_PMD):
            files.add(binary)  # under the name the plan uses
            files.add(os.path.realpath(binary))
            out = subprocess.run(['ldd', binary], capture_output=True,
                                 text=True, check=True).stdout
            files.update(w for w in out.split() if w.startswith('/'))
        # glibc dlopen()s libgcc_s for pthread_cancel (rte_eal_cleanup).
        out = subprocess.run(['ldconfig', '-p'], capture_output=True,
                             text=True).stdout
        files.update(l.split()[-1] for l in out.splitlines()
                     if 'libgcc_s.so.1' in l and 'x86-64' in l)
        for f in files:
            dst = root + f
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(f, dst)
        for role, text in plans.items():
            with open(os.path.join(root, 'plans', role + '.sh'), 'w') as f:
                f.write('PEER=%s\nFWD=%s\nPMDS="-d %s -d %s"\n'
                        'EAL="%s"\n%s\n'
                        % (self.peer_bin, self.fwd_bin, RING_PMD,
                           MEMPOOL_PMD, GUEST_EAL, text))
        cpio = subprocess.Popen(['cpio', '--null', '-o', '-H', 'newc',
                                 '--quiet'], cwd=root,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        with open(self.initrd, 'wb') as out:
            gz = subprocess.Popen(['gzip', '-1'], stdin=cpio.stdout,
                                  stdout=out)
            names = subprocess.run(['find', '.', '-print0'], cwd=root,
                                   capture_output=True, check=True).stdout
            cpio.stdin.write(names)
            cpio.stdin.close()
            cpio.wait()
            gz.wait()


def guest_node(gid, peers, extra=''):
    return ('run node $PEER $EAL --file-prefix node-%s '
            '-a ism:$BDF,fabric=ivshmem,gid=%s -- --role node --peers %s '
            '--hold-event --deadline 420 --seed %d %s'
            % (gid, gid, ','.join(peers), int(gid, 16), extra))


def fabric(vt):
    h, g1, g2 = '0x300', '0x301', '0x302'
    vt.build_initrd({'g1': guest_node(g1, [h, g2], '--survive 1'),
                     'g2': guest_node(g2, [h, g1])})
    # The host member creates the fabric (liveness timeout included).
    host = vt.host('h', h, ['--role', 'node', '--peers', g1 + ',' + g2,
                            '--hold', '--survive', '1', '--msgs', '20',
                            '--deadline', '440', '--seed', '3'])
    a = Guest(vt, 'g1', 'g1')
    b = Guest(vt, 'g2', 'g2')
    for peer, others in ((host, (g1, g2)),):
        for o in others:
            it.progress(peer, o)
    a.wait_line('PROGRESS', pred=lambda l: l.split()[1] == it.uuid(g2) and
                int(l.split()[5]) > 0)
    b.wait_line('PROGRESS', pred=lambda l: l.split()[1] == it.uuid(g1) and
                int(l.split()[5]) > 0)
    hmark, amark = host.count(), a.count()
    t0 = time.monotonic_ns()
    b.kill()
    b.finish()
    gone = lambda l: l.split()[1] == it.uuid(g2)  # noqa: E731
    _, line = host.wait_line('GONE', start=hmark, pred=gone)
    if int(line.split()[5]) == 0:
        raise it.Failure('h: a move to the killed guest succeeded')
    print('h saw g2 gone %.0f ms after the kill of its QEMU, liveness '
          'timeout %d ms (informational)'
          % ((int(line.split()[3]) - t0) / 1e6, LIVENESS_MS))
    _, line = a.wait_line('GONE', start=amark, pred=gone)
    if int(line.split()[5]) == 0:
        raise it.Failure('g1: a move to the killed guest succeeded')
    # The guest boots again, with the same GID: every stream resumes.
    b = Guest(vt, 'g2b', 'g2')
    it.progress(host, g2, session=2, start=hmark)
    a.wait_line('PROGRESS', start=amark,
                pred=lambda l: l.split()[1] == it.uuid(g2) and
                int(l.split()[3]) == 2 and int(l.split()[5]) > 0)
    for o in (h, g1):
        b.wait_line('PROGRESS', pred=lambda l, o=o: l.split()[1] ==
                    it.uuid(o) and int(l.split()[5]) > 0)
    # Release: the host tells the guests, all finish their streams.
    it.expect_pass(host, host.finish())
    for g in (a, b):
        rc, secs = g.finish()
        g.wait_line('VMTEST-RC node 0', timeout=1)
        g.wait_line('PASS', timeout=1)
        g.check_clean()
        print('%s ran %.0f s (boot to power-off, informational)'
              % (g.name, secs))
    print('PASS fabric: two guests and the host, kill -9 of a QEMU, rejoin')


def guest_host(vt):
    srv, cli, fa, fb, va, vb, sc = ('0x310', '0x311', '0x312', '0x313',
                                    '0x314', '0x315', '0x316')
    packets = it_fwd.mixed_packets(1000)
    src = os.path.join(vt.dir, 'in.pcap')
    dst = os.path.join(vt.dir, 'out.pcap')
    it_fwd.pcap_write(src, packets)
    plan = '\n'.join([
        'run api $PEER $EAL --file-prefix api -a ism:$BDF,fabric=ivshmem,'
        'gid=%s -- --role api-client --peers %s' % (cli, srv),
        'run fwd $FWD $EAL --file-prefix fwd $PMDS --vdev net_ring0 '
        '-a ism:$BDF,fabric=ivshmem,gid=%s -- --peer-gid %s '
        '--stats-period 0 --on-peer-loss exit' % (fb, fa),
        guest_node(vb, [va], '--tolerant')])
    vt.build_initrd({'g': plan})
    server = vt.host('srv', srv, ['--role', 'api-server', '--peers', cli,
                                  '--deadline', '400'])
    g = Guest(vt, 'g', 'g')
    it.expect_pass(server, server.finish())
    g.wait_line('VMTEST-RC api 0')
    print('PASS guest-host: the API across the boundary')

    # The host end of the forwarding: pcap in, through the guest and back.
    prefix = it.ism_eal.file_prefix(vt.tag, 'ivshm-vm-fwd')
    fwd = it.ism_eal.Process(
        [vt.fwd_bin] + it.ism_eal.eal_args(1, prefix, vdevs=[
            'ism_ivshm0,path=%s,gid=%s' % (vt.region, fa),
            'net_pcap0,rx_pcap=%s,tx_pcap=%s' % (src, dst)]) + [
            '--', '--peer-gid', fb, '--stats-period', '0', '--stop-after-rx',
            str(len(packets))], 'fwd', 400, prefix=prefix, echo=True)
    vt.procs.append(fwd)
    while fwd.proc.poll() is None:
        # Its guest end failing first would leave it waiting.
        if any(l.startswith('VMTEST-RC fwd') for l in g.lines):
            break
        time.sleep(0.2)
    rc = fwd.wait(30)
    if rc != 0:
        raise it.Failure('host dpdk-ism_fwd: exit status %s' % rc)
    it_fwd.compare(packets, it_fwd.pcap_read(dst))
    g.wait_line('VMTEST-RC fwd 0')
    print('PASS guest-host: %d packets host -> guest -> host, '
          'byte-identical and in order' % len(packets))

    # A host member scribbles while a guest and a host member stream.
    g.wait_line('VMTEST-RUN node')
    victim = vt.host('v', va, ['--role', 'node', '--peers', vb, '--hold',
                               '--tolerant', '--release-all',
                               '--deadline', '400'])
    it.progress(victim, vb)
    g.wait_line('PROGRESS', pred=lambda l: l.split()[1] == it.uuid(va) and
                int(l.split()[5]) > 0)
    s = vt.host('s', sc, ['--role', 'scribble', '--region', vt.region,
                          '--rounds', '5000', '--seed', '11'])
    s.wait_line('SCRIBBLED', timeout=400)
    if s.finish() != 0:
        raise it.Failure('the scribbler failed')
    rc = victim.finish()
    victim.wait_line('SURVIVED', timeout=1)
    if rc != 0:
        raise it.Failure('v: exit status %d after the scribbling' % rc)
    _, line = g.wait_line('SURVIVED')
    g.wait_line('VMTEST-RC node 0')
    rc, secs = g.finish()
    g.check_clean()
    print('guest saw: %s (informational)' % line)
    print('g ran %.0f s (boot to power-off, informational)' % secs)
    print('PASS guest-host: a scribbling member, no crash, no hang')


SCENARIOS = {'fabric': fabric, 'guest-host': guest_host}


def main():
    global it_fwd
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument('--peer', required=True)
    ap.add_argument('--fwd', required=True)
    ap.add_argument('--tag', default='dev')
    ap.add_argument('scenario', choices=sorted(SCENARIOS))
    args = ap.parse_args()
    try:
        if args.tag != 'rel':
            raise Skip('runs in the release build only')
        if shutil.which('qemu-system-x86_64') is None or not (
                os.path.isfile(os.path.join(VM_DIR, 'vmlinux')) and
                os.path.isdir(os.path.join(VM_DIR, 'modules'))):
            raise Skip('no QEMU or guest kernel: run '
                       'tests/bus_ism/vm/prepare.sh once (root)')
        for f in (RING_PMD, MEMPOOL_PMD, '/bin/busybox'):
            if not os.path.isfile(f):
                raise Skip('no %s' % f)
    except Skip as e:
        print('SKIP: %s' % e)
        return 77
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                    'ism_fwd'))
    import ism_fwd_test  # pcap helpers of the ism_fwd tests
    it_fwd = ism_fwd_test
    # Host members live as long as the guests may (TCG on a loaded host).
    it.PROC_TIMEOUT_S = VM_TIMEOUT_S
    # ... and wait for what guests cause (boot, join) as long.
    it.WAIT_S = VM_TIMEOUT_S
    vt = VmTest(args)
    t0 = time.monotonic()
    try:
        SCENARIOS[args.scenario](vt)
    except (it.Failure, it.ism_eal.Error, subprocess.TimeoutExpired) as e:
        print('FAIL %s: %s' % (args.scenario, e))
        return 1
    finally:
        vt.cleanup()
    print('%s took %.0f s (informational)' % (args.scenario,
                                               time.monotonic() - t0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
