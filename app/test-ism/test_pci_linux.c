/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The PCI protocol suite, where Linux's ism driver and SMC-D set the rule
 * the backend follows: a QUERY_RGID answer other than 0 is "cannot talk"
 * whatever its code (net/smc/smc_ism.c, smc_ism_cantalk()), and a
 * function's VLAN ids go with it when it is removed.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_log.h>

#include "test_pci_rec.h"

/* Lines of log that contain what. */
static unsigned int
lines_with(const char *log, const char *what)
{
	const char *p = log;
	unsigned int n = 0;

	while (p != NULL && (p = strstr(p, what)) != NULL) {
		n++;
		p += strlen(what);
	}
	return n;
}

/* test_query_rgid_codes() on p; rc is the code of every answer. */
static int
poll_absent_peer(struct pdev *p, uint16_t rc, unsigned int polls,
		unsigned int *unreachable, char **log)
{
	struct rte_ism_gid peer = { 0x7e57, 0 };
	FILE *f, *old = rte_log_get_stream();
	size_t len = 0;
	unsigned int i;

	*log = NULL;
	f = open_memstream(log, &len);
	TEST_ASSERT_NOT_NULL(f, "open_memstream");
	rte_openlog_stream(f);
	*unreachable = 0;
	p->rec.fault = (struct rec_fault){ 0x09, rc, false, polls };
	for (i = 0; i < polls; i++)
		*unreachable += rte_ism_query_remote_gid(p->id, &peer, 0, 0) ==
			-ENETUNREACH;
	rte_openlog_stream(old);
	fclose(f);
	return TEST_SUCCESS;
}

/*
 * Every non-zero QUERY_RGID code, the emulation's own and Linux's
 * ISM_ERROR alike, is -ENETUNREACH; a client polling for a peer that is
 * not there yet gets no error line per poll. Only the command window
 * failing is -EIO.
 */
int
test_query_rgid_codes(void)
{
	static const uint16_t codes[] = { 0xffff, 0x0001, 0x0101, 0x8000 };
	static struct pdev p;
	unsigned int i, unreachable, lines;
	char *log;
	int ret = TEST_SUCCESS;

	TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_rgid", 0x9a1, true),
			    "create ism_pciproto_rgid");
	for (i = 0; i < RTE_DIM(codes) && ret == TEST_SUCCESS; i++) {
		ret = poll_absent_peer(&p, codes[i], 100, &unreachable, &log);
		if (ret != TEST_SUCCESS)
			break;
		lines = lines_with(log, "QUERY_RGID");
		free(log);
		if (unreachable != 100 || lines != 0) {
			printf("code 0x%04x: %u of 100 polls -ENETUNREACH, "
			       "%u log lines about QUERY_RGID\n", codes[i],
			       unreachable, lines);
			ret = TEST_FAILED;
		}
	}
	if (ret == TEST_SUCCESS) {
		p.rec.read_errno = EIO;
		if (rte_ism_query_remote_gid(p.id, &p.info.gid, 0, 0) != -EIO) {
			printf("QUERY_RGID with the window unreadable: not -EIO\n");
			ret = TEST_FAILED;
		}
		p.rec.read_errno = 0;
	}
	pdev_destroy(&p);
	return ret;
}

/*
 * Closing the device deletes the VLAN ids the application added and left
 * (DEL_VLAN_ID each, before UNREG_IEQ and UNREG_SBA), not those it deleted
 * itself; a DEL_VLAN_ID the device refuses does not stop the teardown.
 */
int
test_close_deletes_vlans(void)
{
	static struct pdev p;
	uint32_t cmds[8] = { 0 };
	const uint8_t *b;
	unsigned int n, mark;
	int ret = TEST_SUCCESS;

	TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_vlan", 0x9a2, true),
			    "create ism_pciproto_vlan");
	if (rte_ism_vlan_add(p.id, 5) != 0 || rte_ism_vlan_add(p.id, 300) != 0 ||
	    rte_ism_vlan_add(p.id, 7) != 0 || rte_ism_vlan_del(p.id, 7) != 0) {
		pdev_destroy(&p);
		TEST_ASSERT(false, "VLAN add/del");
	}
	/* The first DEL_VLAN_ID of the teardown is refused. */
	p.rec.fault = (struct rec_fault){ 0x05, 0xffff, false, 1 };
	mark = p.rec.n;
	pdev_destroy(&p);
	n = cmd_list(&p.rec, mark, cmds, RTE_DIM(cmds));
	if (n != 4 || cmds[0] != 0x05 || cmds[1] != 0x05 || cmds[2] != 0x12 ||
	    cmds[3] != 0x11) {
		printf("teardown: %u commands, 0x%x 0x%x 0x%x 0x%x; expected "
		       "4: 0x05 0x05 0x12 0x11\n", n, cmds[0], cmds[1],
		       cmds[2], cmds[3]);
		ret = TEST_FAILED;
	}
	b = check_request(&p.rec, find_cmd(&p.rec, mark, 0x05, 0), 0x05, 16);
	TEST_ASSERT(b != NULL && be64_at(b + 8) == 5, "DEL_VLAN_ID 5");
	b = check_request(&p.rec, find_cmd(&p.rec, mark, 0x05, 1), 0x05, 16);
	TEST_ASSERT(b != NULL && be64_at(b + 8) == 300, "DEL_VLAN_ID 300");
	TEST_ASSERT(p.rec.fault.count == 0, "the refused DEL_VLAN_ID not seen");
	return ret;
}
