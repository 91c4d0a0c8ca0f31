# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Hugepages for a test that needs DPDK's multi-process support (python3
standard library only): secondary processes map the primary's memory,
which --no-huge memory is not.

    with ism_huge.Hugepages(mb, tmpdir) as h:
        args = ["--huge-dir", h.dir, "-m", str(mb)]

As root it reserves the 2 MiB pages that are missing (the kernel's count
goes up by what this test needs beyond the free pages) and mounts a
hugetlbfs of its own below tmpdir; on the way out it unmounts it (removing
the files EAL left there, which frees their pages) and takes back exactly
the pages it added. Skip (exit 77 in the caller) with the reason when
hugepages cannot be had: not root, no 2 MiB pages in this kernel, or the
kernel gives fewer than asked (fragmented memory).
"""

import os
import subprocess

NR = "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
FREE = "/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages"


class Skip(Exception):
    """Hugepages cannot be had here; the message says why."""


def _read(path):
    with open(path) as f:
        return int(f.read())


def _write(path, value):
    with open(path, "w") as f:
        f.write("%d\n" % value)


class Hugepages:
    def __init__(self, mb, tmpdir):
        self.pages = (mb + 1) // 2
        self.dir = os.path.join(tmpdir, "hugepages")
        self.added = 0
        self.mounted = False

    def __enter__(self):
        if os.geteuid() != 0:
            raise Skip("hugepages: not root (needs %d free 2 MiB pages and "
                       "a hugetlbfs mount)" % self.pages)
        if not os.path.exists(NR):
            raise Skip("hugepages: this kernel has no 2 MiB pages")
        try:
            missing = self.pages - _read(FREE)
            if missing > 0:
                _write(NR, _read(NR) + missing)
                self.added = missing
            if _read(FREE) < self.pages:
                raise Skip("hugepages: the kernel gave %d free 2 MiB pages "
                           "of the %d asked (memory fragmented?)"
                           % (_read(FREE), self.pages))
            os.mkdir(self.dir)
            r = subprocess.run(["mount", "-t", "hugetlbfs", "-o",
                                "pagesize=2M", "nodev", self.dir],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            if r.returncode != 0:
                raise Skip("hugepages: cannot mount a hugetlbfs: %s"
                           % r.stdout.strip())
            self.mounted = True
            print("hugepages: %d pages of 2 MiB at %s (%d added to the "
                  "kernel's, taken back at the end)"
                  % (self.pages, self.dir, self.added), flush=True)
            return self
        except BaseException:
            self.__exit__(None, None, None)
            raise

    def __exit__(self, *exc):
        """Only once every process that mapped the pages is gone."""
        if self.mounted:
            for name in os.listdir(self.dir):
                try:
                    os.unlink(os.path.join(self.dir, name))
                except OSError:
                    pass
            subprocess.run(["umount", self.dir])
            self.mounted = False
        if os.path.isdir(self.dir):
            try:
                os.rmdir(self.dir)
            except OSError:
                pass
        if self.added > 0:
            # Others may have changed the count meanwhile: take back ours
            # only.
            _write(NR, max(_read(NR) - self.added, 0))
            self.added = 0
        return False
