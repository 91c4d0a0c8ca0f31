/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Preloaded into a program run under an emulator (tests/lib/ism_eal.py,
 * ISM_EXE_LINEBUF): its standard output becomes line buffered, as
 * stdbuf -oL does for a native program (whose preload library is the build
 * machine's and cannot be loaded into a program of another CPU). For
 * programs that print to a pipe through stdio without flushing, such as
 * dpdk-testpmd, whose lines a harness waits for.
 */

#include <stdio.h>

void ism_linebuf_init(void) __attribute__((constructor));

void
ism_linebuf_init(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}
