# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""pcap files of numbered Ethernet frames, for the tests that push packets
through DPDK's net_pcap (python3 standard library only): written before a
run, read back after it and compared byte for byte."""

import random
import struct

from ism_eal import Error, check

PCAP_MAGIC_US = 0xA1B2C3D4
PCAP_MAGIC_NS = 0xA1B23C4D


def pcap_write(path, packets):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", PCAP_MAGIC_US, 2, 4, 0, 0, 65535, 1))
        for i, data in enumerate(packets):
            f.write(struct.pack("<IIII", i // 1000, i % 1000, len(data),
                                len(data)))
            f.write(data)


def pcap_read(path):
    """The packets of a pcap file (either byte order, us or ns stamps);
    Error if it is not one or a record is cut."""
    with open(path, "rb") as f:
        blob = f.read()
    check(len(blob) >= 24, "%s: no pcap header" % path)
    for endian in "<>":
        if struct.unpack(endian + "I", blob[:4])[0] in (PCAP_MAGIC_US,
                                                        PCAP_MAGIC_NS):
            break
    else:
        raise Error("%s: not a pcap file" % path)
    packets, off = [], 24
    while off < len(blob):
        check(off + 16 <= len(blob), "%s: truncated record header" % path)
        _, _, incl, orig = struct.unpack(endian + "IIII", blob[off:off + 16])
        check(incl == orig, "%s: record %d cut (%d of %d bytes)"
              % (path, len(packets), incl, orig))
        packets.append(blob[off + 16:off + 16 + incl])
        off += 16 + incl
    return packets


def mixed_packets(n, seed=1, max_len=9000):
    """n Ethernet frames, 64..max_len bytes: the edges around the mbuf
    and slot sizes first, then random sizes; each numbered."""
    rnd = random.Random(seed)
    edges = [s for s in (64, 65, 127, 128, 129, 1500, 1514, 2047, 2048,
                         2049, 2176, 4095, 4096, 4097, 8191, 8192, 9000)
             if s <= max_len]
    sizes = edges + [rnd.randint(64, max_len) for _ in range(n - len(edges))]
    eth = bytes([0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x88, 0xb5])
    return [eth + struct.pack(">I", i) + rnd.randbytes(size - len(eth) - 4)
            for i, size in enumerate(sizes)]


def compare(sent, got, what="packets"):
    """Error unless got holds exactly the packets of sent, in order."""
    check(len(got) == len(sent), "%s: %d packets sent, %d arrived"
          % (what, len(sent), len(got)))
    for i, (a, b) in enumerate(zip(sent, got)):
        if a != b:
            where = next((j for j in range(min(len(a), len(b)))
                          if a[j] != b[j]), min(len(a), len(b)))
            raise Error("%s: packet %d differs (%d vs %d bytes, first at "
                        "byte %d)" % (what, i, len(a), len(b), where))


PCAPNG_SHB = 0x0A0D0D0A
PCAPNG_EPB = 6
PCAPNG_BOM = 0x1A2B3C4D


def pcapng_read(path):
    """The packets of the Enhanced Packet Blocks of a pcapng file (as
    dpdk-dumpcap writes it), in file order; Error if it is not one, or a
    block or a packet is cut."""
    with open(path, "rb") as f:
        blob = f.read()
    check(len(blob) >= 28, "%s: no pcapng section header" % path)
    endian = None
    packets, off = [], 0
    while off < len(blob):
        check(off + 12 <= len(blob), "%s: truncated block at %d"
              % (path, off))
        if endian is None or struct.unpack(endian + "I",
                                           blob[off:off + 4])[0] == \
                PCAPNG_SHB:
            # A section header: its byte order (magic at byte 8).
            for endian in "<>":
                if struct.unpack(endian + "I",
                                 blob[off + 8:off + 12])[0] == PCAPNG_BOM:
                    break
            else:
                raise Error("%s: not a pcapng file" % path)
        btype, blen = struct.unpack(endian + "II", blob[off:off + 8])
        check(blen >= 12 and blen % 4 == 0 and off + blen <= len(blob),
              "%s: block of type %d at %d has length %d" % (path, btype, off,
                                                           blen))
        if btype == PCAPNG_EPB:
            check(blen >= 32, "%s: short packet block at %d" % (path, off))
            _, _, _, caplen, origlen = struct.unpack(
                endian + "IIIII", blob[off + 8:off + 28])
            check(caplen == origlen and 28 + caplen <= blen,
                  "%s: packet %d cut (%d of %d bytes)"
                  % (path, len(packets), caplen, origlen))
            packets.append(blob[off + 28:off + 28 + caplen])
        off += blen
    return packets
