#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# A one-client ivshmem server for the vfio VM test (Debian ships QEMU's
# ivshmem-doorbell device but not its server). It speaks the protocol of
# QEMU's docs/specs/ivshmem-spec.txt to the one QEMU that connects: the
# version (0), the client's ID, the shared memory fd, and one eventfd for
# the client's own vector 0, so that the guest can interrupt itself by
# writing its own ID to the doorbell. It then waits until QEMU closes the
# connection, or exits at the given deadline.
#   ivshmem_server.py SOCKET SHM_FILE DEADLINE_S
import array
import os
import socket
import struct
import sys

CLIENT_ID = 1


def send(conn, value, fd=None):
    data = struct.pack('<q', value)
    if fd is None:
        conn.sendmsg([data])
    else:
        conn.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                               array.array('i', [fd]))])


def main():
    path, shm_path, deadline = sys.argv[1], sys.argv[2], float(sys.argv[3])
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    srv.settimeout(deadline)
    conn, _ = srv.accept()
    conn.settimeout(deadline)
    shm = os.open(shm_path, os.O_RDWR)
    efd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
    send(conn, 0)                   # protocol version
    send(conn, CLIENT_ID)           # the client's ID
    send(conn, -1, shm)             # the shared memory
    send(conn, CLIENT_ID, efd)      # interrupt setup: own vector 0
    try:
        while conn.recv(64):
            pass
    except socket.timeout:
        pass
    conn.close()
    srv.close()


if __name__ == '__main__':
    main()
