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

/* test_ieq_wrap() on p (no interrupt), from q. */
static int
ieq_wrap(struct pdev *p, struct pdev *q)
{
	static const unsigned int per_round[] = { 3, 7, 14, 14, 1, 9, 14 };
	struct rte_ism_event ev[16];
	struct rte_ism_signal sig[1];
	unsigned int round, i, sent = 0, got = 0;
	int n;

	TEST_ASSERT_SUCCESS(pdev_create(q, "ism_pciproto_tx", 0x1e2, true),
			    "create ism_pciproto_tx");
	for (round = 0; round < RTE_DIM(per_round); round++) {
		for (i = 0; i < per_round[round]; i++, sent++)
			TEST_ASSERT_SUCCESS(rte_ism_signal_event(q->id,
						&p->info.gid, 0, 0x42, sent),
					    "event %u", sent);
		TEST_ASSERT_EQUAL(rte_ism_event_poll(p->id, ev, 16), 0,
				  "round %u: events without a drain", round);
		rte_ism_signal_poll(p->id, sig, 1);
		while ((n = rte_ism_event_poll(p->id, ev, 16)) > 0)
			for (i = 0; i < (unsigned int)n; i++, got++)
				TEST_ASSERT(ev[i].type == RTE_ISM_EVENT_SW &&
					    ev[i].code == 0x42 &&
					    ev[i].info == got &&
					    ev[i].gid.gid == q->info.gid.gid,
					    "event %u: type %u code 0x%x info %"
					    PRIu64 " GID 0x%" PRIx64 "; expect"
					    " SW, 0x42, %u, 0x%" PRIx64, got,
					    ev[i].type, ev[i].code, ev[i].info,
					    ev[i].gid.gid, got,
					    q->info.gid.gid);
		TEST_ASSERT_EQUAL(got, sent, "round %u: events", round);
	}
	TEST_ASSERT_EQUAL(xstat(p, "pci_ieq_events"), sent, "IEQ events");
	TEST_ASSERT_EQUAL(xstat(p, "pci_interrupts"), 0, "interrupts");
	return TEST_SUCCESS;
}

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
	static struct pdev p, q;
	int ret;

	TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_rx", 0x1e1, false),
			    "create ism_pciproto_rx");
	ret = ieq_wrap(&p, &q);
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/* The signals of test_sba_order() into DMBs d[3] of p, from q. */
static int
sba_order(struct pdev *p, struct pdev *q, struct rte_ism_dmb *d)
{
	static const uint32_t want_idx[3] = { 40, 33, 100 };
	struct rte_ism_signal sig[4];
	const uint8_t *b;
	uint8_t *sba;
	unsigned int i;
	char byte = 0;

	TEST_ASSERT_SUCCESS(pdev_create(q, "ism_pciproto_tx", 0x5b2, true),
			    "create ism_pciproto_tx");
	/* The SBA page, from the IOVA the backend registered. */
	b = check_request(&p->rec, find_cmd(&p->rec, 0, 0x01, 0), 0x01, 16);
	TEST_ASSERT_NOT_NULL(b, "REG_SBA request");
	sba = rte_mem_iova2virt(be64_at(b + 8));
	TEST_ASSERT_NOT_NULL(sba, "SBA IOVA 0x%" PRIx64 " not DPDK memory",
			     be64_at(b + 8));
	for (i = 0; i < 3; i++) {
		d[i].len = 64;
		d[i].idx = want_idx[i];
		d[i].rgid = q->info.gid;
		TEST_ASSERT_SUCCESS(rte_ism_dmb_register(p->id, &d[i]),
				    "DMB %u", want_idx[i]);
	}
	/* Element 0 of DMB 40: the device's mask for element 0 is 0x1000. */
	TEST_ASSERT_SUCCESS(rte_ism_move_data(q->id, d[0].token, 0, 1, 0,
					      &byte, 1), "move_data");
	TEST_ASSERT_EQUAL(sba[0], 0x80, "S");
	TEST_ASSERT_EQUAL(sba[4 + 40 / 8], 0x80 >> (40 % 8), "bit of DMB 40");
	TEST_ASSERT_EQUAL(sba[256 + 80], 0x10, "mask of DMB 40, high byte");
	TEST_ASSERT_EQUAL(sba[256 + 81], 0x00, "mask of DMB 40, low byte");
	/* A bit and mask without S are found: S does not gate the scan
	 * (Linux never reads S).
	 */
	sba[0] = 0;
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 4), 1,
			  "a bit without S");
	TEST_ASSERT(sig[0].dmb_idx == 40 && sig[0].mask == 1,
		    "signal idx %u mask 0x%x, expected 40 0x1", sig[0].dmb_idx,
		    sig[0].mask);
	TEST_ASSERT_EQUAL(sba[4 + 40 / 8], 0, "bit of DMB 40 after the poll");
	TEST_ASSERT_EQUAL(sba[256 + 80], 0, "mask of DMB 40 after the poll");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(q->id, d[0].token, 0, 1, 0,
					      &byte, 1), "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(q->id, d[1].token, 15, 1, 0,
					      &byte, 1), "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(q->id, d[2].token, 13, 1, 0,
					      &byte, 1), "move_data");
	/* Room for one: the lowest index, S cleared first, the rest handed
	 * back.
	 */
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 1), 1,
			  "room for one");
	TEST_ASSERT(sig[0].dmb_idx == 33 && sig[0].mask == 1u << 15,
		    "signal idx %u mask 0x%x, expected 33 0x8000",
		    sig[0].dmb_idx, sig[0].mask);
	TEST_ASSERT_EQUAL(sba[0], 0, "S after the poll");
	TEST_ASSERT(sba[4 + 40 / 8] & (0x80 >> (40 % 8)),
		    "bit of DMB 40 not handed back");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 4), 2,
			  "the rest");
	TEST_ASSERT(sig[0].dmb_idx == 40 && sig[0].mask == 1 &&
		    sig[1].dmb_idx == 100 && sig[1].mask == 1u << 13,
		    "signals idx %u mask 0x%x, idx %u mask 0x%x; expected 40 "
		    "0x1, 100 0x2000", sig[0].dmb_idx, sig[0].mask,
		    sig[1].dmb_idx, sig[1].mask);
	TEST_ASSERT_EQUAL(sba[0], 0, "S after the poll");
	TEST_ASSERT_EQUAL(sba[4 + 100 / 8], 0, "bit of DMB 100");
	TEST_ASSERT_EQUAL(sba[256 + 200], 0, "mask of DMB 100");
	TEST_ASSERT_EQUAL(sba[256 + 201], 0, "mask of DMB 100");
	/* A bit without a mask is a signal all the same (Linux delivers
	 * every set bit): reported with mask 0.
	 */
	sba[4 + 33 / 8] |= 0x80 >> (33 % 8);
	sba[0] = 0x80;
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 4), 1,
			  "a bit without a mask");
	TEST_ASSERT(sig[0].dmb_idx == 33 && sig[0].mask == 0,
		    "signal idx %u mask 0x%x, expected 33 0", sig[0].dmb_idx,
		    sig[0].mask);
	TEST_ASSERT_EQUAL(sba[4 + 33 / 8], 0, "bit of DMB 33 after the poll");
	TEST_ASSERT_EQUAL(sba[0], 0, "S after the poll");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 4), 0,
			  "signals left");
	return TEST_SUCCESS;
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
	unsigned int i;
	int ret;

	TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_rx", 0x5b1, true),
			    "create ism_pciproto_rx");
	memset(d, 0, sizeof(d));
	ret = sba_order(&p, &q, d);
	for (i = 0; i < 3; i++)
		if (d[i].token != 0)
			rte_ism_dmb_unregister(p.id, d[i].token);
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}


/* A receiver on a function with these quirks, a sender on a plain one,
 * and DMBs at indices 32.. of the receiver for the sender.
 */
static int
pair_with_dmbs(struct pdev *p, struct pdev *q, uint32_t quirks,
		struct rte_ism_dmb *d, unsigned int nb)
{
	struct pdev_opts o = { .irq = true };
	unsigned int i;

	o.model.quirks = quirks;
	TEST_ASSERT_SUCCESS(pdev_create_opts(p, "ism_pciproto_rx", 0x6a1, &o),
			    "create ism_pciproto_rx");
	TEST_ASSERT_SUCCESS(pdev_create(q, "ism_pciproto_tx", 0x6a2, true),
			    "create ism_pciproto_tx");
	for (i = 0; i < nb; i++)
		TEST_ASSERT_SUCCESS(fx_register(p->id, 64, &q->info.gid,
						&d[i]), "DMB %u", i);
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

/* test_signal_mask0() on the pair p, q and its DMBs d[3]. */
static int
signal_mask0(struct pdev *p, struct pdev *q, struct rte_ism_dmb *d)
{
	struct rte_ism_signal sig[4];
	char byte = 1;

	TEST_ASSERT_SUCCESS(pair_with_dmbs(p, q, ISM_MODEL_Q_MASK0, d, 3),
			    "set-up");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(q->id, d[2].token, 9, 1, 0,
					      &byte, 1), "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(q->id, d[0].token, 3, 1, 0,
					      &byte, 1), "move_data");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 4), 2, "signals");
	TEST_ASSERT(sig[0].dmb_idx == d[0].idx && sig[0].mask == 0 &&
		    sig[1].dmb_idx == d[2].idx && sig[1].mask == 0,
		    "signals idx %u mask 0x%x, idx %u mask 0x%x; expected %u "
		    "0, %u 0", sig[0].dmb_idx, sig[0].mask, sig[1].dmb_idx,
		    sig[1].mask, d[0].idx, d[2].idx);
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 4), 0,
			  "signals left");
	return TEST_SUCCESS;
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
	int ret;

	memset(d, 0, sizeof(d));
	ret = signal_mask0(&p, &q, d);
	pair_destroy(&p, &q, d, 3);
	return ret;
}

/* test_signal_without_s() on the pair p, q and its DMBs d[nb]. */
static int
signal_without_s(struct pdev *p, struct pdev *q, struct rte_ism_dmb *d,
		unsigned int nb)
{
	static const unsigned int which[] = { 99, 0, 31, 32, 64, 65 };
	/* In index order: d[0], d[31], d[32], d[64], d[65], d[99]. */
	static const unsigned int pos[] = { 1, 2, 3, 4, 5, 0 };
	struct rte_ism_signal sig[8];
	unsigned int i;
	char byte = 2;

	TEST_ASSERT_SUCCESS(pair_with_dmbs(p, q, ISM_MODEL_Q_NO_S, d, nb),
			    "set-up");
	for (i = 0; i < RTE_DIM(which); i++)
		TEST_ASSERT_SUCCESS(rte_ism_move_data(q->id, d[which[i]].token,
						      i, 1, 0, &byte, 1),
				    "move into d[%u]", which[i]);
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 8), RTE_DIM(which),
			  "signals without S");
	for (i = 0; i < RTE_DIM(which); i++)
		TEST_ASSERT(sig[i].dmb_idx == d[which[pos[i]]].idx &&
			    sig[i].mask == 1u << pos[i],
			    "signal %u: idx %u mask 0x%x, expected %u 0x%x", i,
			    sig[i].dmb_idx, sig[i].mask, d[which[pos[i]]].idx,
			    1u << pos[i]);
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 8), 0,
			  "signals left");
	return TEST_SUCCESS;
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
	int ret;

	memset(d, 0, sizeof(d));
	ret = signal_without_s(&p, &q, d, RTE_DIM(d));
	pair_destroy(&p, &q, d, RTE_DIM(d));
	return ret;
}

/* A round of test_interrupt_path(): an event from q reaches p through
 * the interrupt.
 */
static int
interrupt_round(struct pdev *p, struct pdev *q, unsigned int round)
{
	struct rte_ism_event ev[4];
	uint64_t irqs0;
	int n;

	TEST_ASSERT_SUCCESS(pdev_create(q, "ism_pciproto_tx", 0x1a2, true),
			    "round %u: create ism_pciproto_tx", round);
	irqs0 = xstat(p, "pci_interrupts");
	TEST_ASSERT_SUCCESS(rte_ism_signal_event(q->id, &p->info.gid, 1, 0x77,
						 round), "round %u", round);
	n = rte_ism_event_poll(p->id, ev, 4);
	TEST_ASSERT_EQUAL(n, 1, "round %u: events", round);
	TEST_ASSERT(ev[0].type == RTE_ISM_EVENT_SW && ev[0].code == 0x77 &&
		    ev[0].info == round, "round %u: event type %u code 0x%x "
		    "info %" PRIu64 ", expected SW 0x77 %u", round, ev[0].type,
		    ev[0].code, ev[0].info, round);
	TEST_ASSERT(xstat(p, "pci_interrupts") > irqs0,
		    "round %u: no interrupt counted", round);
	TEST_ASSERT_EQUAL(xstat(p, "pci_ieq_events"), 1,
			  "round %u: IEQ events", round);
	return TEST_SUCCESS;
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
	unsigned int round;
	int n = 0, ret;

	for (round = 0; round < 2; round++) {
		TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_rx", 0x1a1,
						true), "round %u: create "
				    "ism_pciproto_rx", round);
		ret = interrupt_round(&p, &q, round);
		pdev_destroy(&q);
		/* q's teardown told p: DEV 0x07, through the interrupt. */
		if (ret == TEST_SUCCESS)
			n = rte_ism_event_poll(p.id, ev, 4);
		pdev_destroy(&p);
		if (ret != TEST_SUCCESS)
			return ret;
		TEST_ASSERT_EQUAL(n, 1, "round %u: events after the peer left",
				  round);
		TEST_ASSERT(ev[0].type == RTE_ISM_EVENT_DEV &&
			    ev[0].code == RTE_ISM_DEV_DISABLED &&
			    ev[0].gid.gid == 0x1a2, "round %u: event type %u "
			    "code 0x%x GID 0x%" PRIx64 ", expected DEV 0x%x "
			    "0x1a2", round, ev[0].type, ev[0].code,
			    ev[0].gid.gid, RTE_ISM_DEV_DISABLED);
	}
	return TEST_SUCCESS;
}
