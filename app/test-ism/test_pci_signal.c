/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The PCI protocol suite, what the function writes: the event queue
 * (IEQ), the signalling bit array (SBA) as Linux's driver scans it, and
 * the interrupt.
 */

#include <rte_memory.h>

#include "test_pci_rec.h"

/*
 * Without an interrupt, events wait in the 15-entry ring until a signal
 * poll drains them. Several rounds wrap the ring; every event arrives
 * once, in order, translated. At most 14 per round: with 15 the device
 * index comes back to the last entry consumed and the round looks empty
 * (Linux's consumer has the same limit).
 */
int
test_ieq_wrap(void)
{
	static const unsigned int per_round[] = { 3, 7, 14, 14, 1, 9, 14 };
	static struct pdev p, q;
	struct rte_ism_event ev[16];
	struct rte_ism_signal sig[1];
	unsigned int round, i, sent = 0, got = 0;
	int n, ret = TEST_FAILED;

	TEST_RET(pdev_create(&p, "ism_pciproto_rx", 0x1e1, false), 0);
	if (pdev_create(&q, "ism_pciproto_tx", 0x1e2, true) != 0)
		goto out;
	for (round = 0; round < RTE_DIM(per_round); round++) {
		for (i = 0; i < per_round[round]; i++)
			if (rte_ism_signal_event(q.id, &p.info.gid, 0, 0x42,
						 sent++) != 0)
				goto out;
		if (rte_ism_event_poll(p.id, ev, 16) != 0) {
			printf("    FAIL: events without a drain\n");
			goto out;
		}
		rte_ism_signal_poll(p.id, sig, 1);
		while ((n = rte_ism_event_poll(p.id, ev, 16)) > 0)
			for (i = 0; i < (unsigned int)n; i++, got++)
				if (ev[i].type != RTE_ISM_EVENT_SW ||
				    ev[i].code != 0x42 || ev[i].info != got ||
				    ev[i].gid.gid != q.info.gid.gid) {
					printf("    FAIL: event %u: type %u info "
					       "%" PRIu64 "\n", got, ev[i].type,
					       ev[i].info);
					goto out;
				}
		if (got != sent) {
			printf("    FAIL: round %u: %u of %u events\n", round,
			       got, sent);
			goto out;
		}
	}
	if (xstat(&p, "pci_ieq_events") != sent ||
	    xstat(&p, "pci_interrupts") != 0)
		goto out;
	ret = TEST_SUCCESS;
out:
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/*
 * The SBA as the device writes it (big-endian, MSB first): S in byte 0,
 * DMB n at byte 4 + n / 8 mask 0x80 >> n % 8, its element mask at
 * 256 + 2n. The poll clears S first, reports in index order, hands back
 * what does not fit (with S), and skips a bit whose mask was taken.
 */
int
test_sba_order(void)
{
	static struct pdev p, q;
	struct rte_ism_dmb d[3];
	struct rte_ism_signal sig[4];
	uint32_t want_idx[3] = { 40, 33, 100 };
	const uint8_t *b;
	uint8_t *sba;
	unsigned int i;
	char byte = 0;
	int ret = TEST_FAILED;

	TEST_RET(pdev_create(&p, "ism_pciproto_rx", 0x5b1, true), 0);
	if (pdev_create(&q, "ism_pciproto_tx", 0x5b2, true) != 0)
		goto out;
	/* The SBA page, from the IOVA the backend registered. */
	b = check_request(&p.rec, find_cmd(&p.rec, 0, 0x01, 0), 0x01, 16);
	sba = b != NULL ? rte_mem_iova2virt(be64_at(b + 8)) : NULL;
	if (sba == NULL)
		goto out;
	memset(d, 0, sizeof(d));
	for (i = 0; i < 3; i++) {
		d[i].len = 64;
		d[i].idx = want_idx[i];
		d[i].rgid = q.info.gid;
		if (rte_ism_dmb_register(p.id, &d[i]) != 0)
			goto out;
	}
	/* Element 0 of DMB 40: the device's mask for element 0 is 0x1000. */
	if (rte_ism_move_data(q.id, d[0].token, 0, 1, 0, &byte, 1) != 0 ||
	    sba[0] != 0x80 || sba[4 + 40 / 8] != (0x80 >> (40 % 8)) ||
	    sba[256 + 80] != 0x10 || sba[256 + 81] != 0x00) {
		printf("    FAIL: SBA bytes %02x %02x %02x%02x\n", sba[0],
		       sba[9], sba[336], sba[337]);
		goto out;
	}
	/* A bit and mask without S are found: S does not gate the scan
	 * (Linux never reads S). */
	sba[0] = 0;
	if (rte_ism_signal_poll(p.id, sig, 4) != 1 || sig[0].dmb_idx != 40 ||
	    sig[0].mask != 1 || sba[4 + 40 / 8] != 0 || sba[256 + 80] != 0)
		goto out;
	if (rte_ism_move_data(q.id, d[0].token, 0, 1, 0, &byte, 1) != 0 ||
	    rte_ism_move_data(q.id, d[1].token, 15, 1, 0, &byte, 1) != 0 ||
	    rte_ism_move_data(q.id, d[2].token, 13, 1, 0, &byte, 1) != 0)
		goto out;
	/* Room for one: the lowest index, S cleared first, the rest handed
	 * back. */
	if (rte_ism_signal_poll(p.id, sig, 1) != 1 || sig[0].dmb_idx != 33 ||
	    sig[0].mask != 1u << 15 || sba[0] != 0 ||
	    !(sba[4 + 40 / 8] & (0x80 >> (40 % 8))))
		goto out;
	if (rte_ism_signal_poll(p.id, sig, 4) != 2 || sig[0].dmb_idx != 40 ||
	    sig[0].mask != 1 || sig[1].dmb_idx != 100 ||
	    sig[1].mask != 1u << 13 || sba[0] != 0 || sba[4 + 100 / 8] != 0 ||
	    sba[256 + 200] != 0 || sba[256 + 201] != 0)
		goto out;
	/* A bit without a mask is a signal all the same (Linux delivers
	 * every set bit): reported with mask 0. */
	sba[4 + 33 / 8] |= 0x80 >> (33 % 8);
	sba[0] = 0x80;
	if (rte_ism_signal_poll(p.id, sig, 4) != 1 || sig[0].dmb_idx != 33 ||
	    sig[0].mask != 0 || sba[4 + 33 / 8] != 0 || sba[0] != 0 ||
	    rte_ism_signal_poll(p.id, sig, 4) != 0)
		goto out;
	ret = TEST_SUCCESS;
out:
	if (ret != TEST_SUCCESS)
		printf("    FAIL: SBA scan\n");
	for (i = 0; i < 3; i++)
		if (d[i].token != 0)
			rte_ism_dmb_unregister(p.id, d[i].token);
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}


/* A receiver on a function with these quirks, a sender on a plain one,
 * and DMBs at indices 32.. of the receiver for the sender. */
static int
pair_with_dmbs(struct pdev *p, struct pdev *q, uint32_t quirks,
		struct rte_ism_dmb *d, unsigned int nb)
{
	struct pdev_opts o = { .irq = true };
	unsigned int i;

	o.model.quirks = quirks;
	TEST_RET(pdev_create_opts(p, "ism_pciproto_rx", 0x6a1, &o), 0);
	TEST_RET(pdev_create(q, "ism_pciproto_tx", 0x6a2, true), 0);
	for (i = 0; i < nb; i++)
		TEST_RUN(fx_register(p->id, 64, &q->info.gid, &d[i]));
	return TEST_SUCCESS;
}

static void
pair_destroy(struct pdev *p, struct pdev *q, struct rte_ism_dmb *d,
		unsigned int nb)
{
	unsigned int i;

	for (i = 0; p->fn != NULL && i < nb; i++)
		if (d[i].token != 0)
			rte_ism_dmb_unregister(p->id, d[i].token);
	pdev_destroy(q);
	pdev_destroy(p);
}

/*
 * A function that sets the DMB bit but leaves the element mask 0: every
 * signal is reported once, with mask 0 (it used to be dropped).
 */
int
test_signal_mask0(void)
{
	static struct pdev p, q;
	static struct rte_ism_dmb d[3];
	struct rte_ism_signal sig[4];
	char byte = 1;
	int n, ret = TEST_FAILED;

	memset(d, 0, sizeof(d));
	if (pair_with_dmbs(&p, &q, ISM_MODEL_Q_MASK0, d, 3) != TEST_SUCCESS)
		goto out;
	if (rte_ism_move_data(q.id, d[2].token, 9, 1, 0, &byte, 1) != 0 ||
	    rte_ism_move_data(q.id, d[0].token, 3, 1, 0, &byte, 1) != 0)
		goto out;
	n = rte_ism_signal_poll(p.id, sig, 4);
	if (n != 2 || sig[0].dmb_idx != d[0].idx || sig[0].mask != 0 ||
	    sig[1].dmb_idx != d[2].idx || sig[1].mask != 0) {
		printf("    FAIL: %d signals, first idx %u mask 0x%x\n", n,
		       n > 0 ? sig[0].dmb_idx : 0, n > 0 ? sig[0].mask : 0);
		goto out;
	}
	if (rte_ism_signal_poll(p.id, sig, 4) != 0)
		goto out;
	ret = TEST_SUCCESS;
out:
	pair_destroy(&p, &q, d, 3);
	return ret;
}

/*
 * A function that never sets S: signals are found by the bits alone,
 * among many registered DMBs, in index order, each once with its mask.
 */
int
test_signal_without_s(void)
{
	static struct pdev p, q;
	static struct rte_ism_dmb d[100];
	static const unsigned int which[] = { 99, 0, 31, 32, 64, 65 };
	struct rte_ism_signal sig[8];
	unsigned int i;
	char byte = 2;
	int n, ret = TEST_FAILED;

	memset(d, 0, sizeof(d));
	if (pair_with_dmbs(&p, &q, ISM_MODEL_Q_NO_S, d, RTE_DIM(d)) !=
	    TEST_SUCCESS)
		goto out;
	for (i = 0; i < RTE_DIM(which); i++)
		if (rte_ism_move_data(q.id, d[which[i]].token, i, 1, 0, &byte,
				      1) != 0)
			goto out;
	n = rte_ism_signal_poll(p.id, sig, 8);
	if (n != (int)RTE_DIM(which)) {
		printf("    FAIL: %d signals without S, want %u\n", n,
		       (unsigned int)RTE_DIM(which));
		goto out;
	}
	/* In index order: d[0], d[31], d[32], d[64], d[65], d[99]. */
	for (i = 0; i < (unsigned int)n; i++) {
		static const unsigned int pos[] = { 1, 2, 3, 4, 5, 0 };

		if (sig[i].dmb_idx != d[which[pos[i]]].idx ||
		    sig[i].mask != 1u << pos[i]) {
			printf("    FAIL: signal %u: idx %u mask 0x%x\n", i,
			       sig[i].dmb_idx, sig[i].mask);
			goto out;
		}
	}
	if (rte_ism_signal_poll(p.id, sig, 8) != 0)
		goto out;
	ret = TEST_SUCCESS;
out:
	pair_destroy(&p, &q, d, RTE_DIM(d));
	return ret;
}

/*
 * Events reach the driver through the function's interrupt: the model's
 * handle, served by the EAL interrupt thread, runs the backend's
 * callback, which drains the IEQ. The event is in the device's queue
 * without any signal poll, and the interrupt is counted. After teardown
 * the callback is gone: the handle's eventfd is not served for the
 * backend any more (a new device on a new function works the same).
 */
int
test_interrupt_path(void)
{
	static struct pdev p, q;
	struct rte_ism_event ev[4];
	uint64_t irqs0;
	unsigned int round;
	int n;

	for (round = 0; round < 2; round++) {
		TEST_RET(pdev_create(&p, "ism_pciproto_rx", 0x1a1, true), 0);
		if (pdev_create(&q, "ism_pciproto_tx", 0x1a2, true) != 0) {
			pdev_destroy(&p);
			TEST_ASSERT(false, "second device");
		}
		irqs0 = xstat(&p, "pci_interrupts");
		n = rte_ism_signal_event(q.id, &p.info.gid, 1, 0x77, round);
		if (n == 0)
			n = rte_ism_event_poll(p.id, ev, 4);
		if (n != 1 || ev[0].type != RTE_ISM_EVENT_SW ||
		    ev[0].code != 0x77 || ev[0].info != round ||
		    xstat(&p, "pci_interrupts") <= irqs0 ||
		    xstat(&p, "pci_ieq_events") != 1) {
			pdev_destroy(&q);
			pdev_destroy(&p);
			TEST_ASSERT(false, "round %u: %d events, %" PRIu64
				    " interrupts", round, n,
				    xstat(&p, "pci_interrupts") - irqs0);
		}
		pdev_destroy(&q);
		/* q's teardown told p: DEV 0x07, through the interrupt. */
		n = rte_ism_event_poll(p.id, ev, 4);
		pdev_destroy(&p);
		TEST_ASSERT(n == 1 && ev[0].type == RTE_ISM_EVENT_DEV &&
			    ev[0].code == RTE_ISM_DEV_DISABLED &&
			    ev[0].gid.gid == 0x1a2,
			    "round %u: %d events after the peer left", round,
			    n);
	}
	return TEST_SUCCESS;
}
