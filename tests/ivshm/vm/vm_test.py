#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The ivshmem backend between QEMU guests and host processes.

Guests (tests/vm/vmlib.py: TCG, emulated intel-iommu, PVH vmlinux, the
kernel and vfio modules of tests/vm/prepare.sh) get an ivshmem-plain
function backed by a file in /dev/shm; their plan binds it to vfio-pci and
runs DPDK programs over the ism bus (-a ism:<address>,fabric=ivshmem).
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

Skips (77) unless tests/vm/prepare.sh was run, and in sanitizer builds.
Exit status 0 pass, 1 fail.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'vm'))
import ivshm_test as it  # noqa: E402 (the host-side Peer and helpers)
import vmlib  # noqa: E402 (tests/vm)

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


def Guest(vt, name, role):
    """A guest of role role in vt's fabric: the region file behind its
    ivshmem-plain function."""
    g = vmlib.Guest(name, role, vt.initrd, timeout=VM_TIMEOUT_S, devices=[
        '-object', 'memory-backend-file,id=ivmem,share=on,mem-path=%s,'
        'size=%d' % (vt.region, REGION_SIZE),
        '-device', 'ivshmem-plain,memdev=ivmem'])
    vt.guests.append(g)
    return g


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
            g.cleanup()
        for p in self.procs:
            p.cleanup()
        super().cleanup()
        shutil.rmtree(self.shm, ignore_errors=True)

    def build_initrd(self, plans):
        """The programs with their libraries, the net_ring plugin, the
        plans, each binding the ivshmem function first."""
        head = ('bind_vfio 0x1af4 0x1110\nPEER=%s\nFWD=%s\n'
                'PMDS="-d %s -d %s"\nEAL="%s"\n'
                % (self.peer_bin, self.fwd_bin, RING_PMD, MEMPOOL_PMD,
                   GUEST_EAL))
        vmlib.initramfs(self.dir, programs=[self.peer_bin, self.fwd_bin],
                        files=[RING_PMD, MEMPOOL_PMD],
                        plans={r: head + t for r, t in plans.items()})


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
        vmlib.check_ready(args.tag)
        for f in (RING_PMD, MEMPOOL_PMD):
            if not os.path.isfile(f):
                raise vmlib.Skip('no %s' % f)
    except vmlib.Skip as e:
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
