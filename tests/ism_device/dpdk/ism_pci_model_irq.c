/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The emulated ISM function in process (tests only): its interrupt, through
 * the same rte_intr interface the ism bus gives the backend, served by
 * the EAL interrupt thread. The handle is of type VDEV (rte_intr_enable()
 * and _disable() do nothing, as vfio's MSI needs no unmasking) on an
 * eventfd the model writes to raise the interrupt. Two callbacks of the
 * model frame the driver's on the same handle, in the order EAL runs
 * callbacks (registration order):
 *   before, registered when the function is created: reads the eventfd,
 *     which EAL does itself for a vfio handle, and notes how many
 *     interrupts were raised by then;
 *   after, registered when the driver registers its SBA (it has set up
 *     its interrupt by then, as Linux does): publishes that number, so a
 *     raiser waiting for it knows the driver's callback has seen its
 *     interrupt.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <rte_interrupts.h>

#include <ism_compat.h>

#include "ism_pci_model_priv.h"

/* Only stops a hang: the interrupt thread normally runs within ms. */
#define MODEL_IRQ_WAIT_S 10

static void
irq_before(void *arg)
{
	struct ism_pci_model_fn *fn = arg;
	uint64_t n;

	/* Read first: a raise after this read makes the fd readable again. */
	if (read(rte_intr_fd_get(fn->irq.handle), &n, sizeof(n)) < 0 &&
	    errno != EAGAIN)
		MODEL_LOG(ERR, "%s: interrupt eventfd: %s", fn->name,
			  strerror(errno));
	fn->irq.seen = rte_atomic_load_explicit(&fn->irq.raised, rte_memory_order_acquire);
}

static void
irq_after(void *arg)
{
	struct ism_pci_model_fn *fn = arg;

	pthread_mutex_lock(&fn->irq.lock);
	fn->irq.done = fn->irq.seen;
	pthread_cond_broadcast(&fn->irq.cond);
	pthread_mutex_unlock(&fn->irq.lock);
}

int
model_irq_init(struct ism_pci_model_fn *fn)
{
	struct model_irq *q = &fn->irq;
	pthread_condattr_t ca;
	int efd, ret;

	pthread_mutex_init(&q->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&q->cond, &ca);
	pthread_condattr_destroy(&ca);
	q->handle = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	ret = efd < 0 ? -errno : 0;
	if (q->handle == NULL || ret != 0 ||
	    rte_intr_fd_set(q->handle, efd) != 0 ||
	    rte_intr_type_set(q->handle, RTE_INTR_HANDLE_VDEV) != 0) {
		if (efd >= 0)
			close(efd);
		ret = ret != 0 ? ret : -ENOMEM;
		goto err;
	}
	ret = rte_intr_callback_register(q->handle, irq_before, fn);
	if (ret < 0) {
		close(efd);
		goto err;
	}
	return 0;
err:
	MODEL_LOG(ERR, "%s: no interrupt: %s", fn->name, strerror(-ret));
	rte_intr_instance_free(q->handle);
	q->handle = NULL;
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
	return ret;
}

void
model_irq_fini(struct ism_pci_model_fn *fn)
{
	struct model_irq *q = &fn->irq;

	if (q->handle == NULL)
		return;
	model_irq_arm(fn, false);
	rte_intr_callback_unregister_sync(q->handle, irq_before, fn);
	close(rte_intr_fd_get(q->handle));
	rte_intr_instance_free(q->handle);
	q->handle = NULL;
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
}

void
model_irq_arm(struct ism_pci_model_fn *fn, bool on)
{
	struct model_irq *q = &fn->irq;

	if (q->post_on == on)
		return;
	if (on)
		q->post_on = rte_intr_callback_register(q->handle, irq_after,
				fn) == 0;
	else if (rte_intr_callback_unregister_sync(q->handle, irq_after,
			fn) >= 0)
		q->post_on = false;
	if (q->post_on != on)
		MODEL_LOG(ERR, "%s: cannot %sregister the interrupt callback",
			  fn->name, on ? "" : "un");
}

void
model_irq_raise(struct ism_pci_model_fn *fn, bool wait)
{
	struct model_irq *q = &fn->irq;
	uint64_t one = 1, gen;
	struct timespec until;
	int ret = 0;

	gen = rte_atomic_fetch_add_explicit(&q->raised, 1,
			rte_memory_order_release) + 1;
	if (write(rte_intr_fd_get(q->handle), &one, sizeof(one)) < 0) {
		MODEL_LOG(ERR, "%s: interrupt eventfd: %s", fn->name,
			  strerror(errno));
		return;
	}
	/* The interrupt thread itself cannot wait for itself. */
	if (!wait || !q->post_on || rte_thread_is_intr())
		return;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += MODEL_IRQ_WAIT_S;
	pthread_mutex_lock(&q->lock);
	while (q->done < gen && ret == 0)
		ret = pthread_cond_timedwait(&q->cond, &q->lock, &until);
	pthread_mutex_unlock(&q->lock);
	if (ret != 0)
		MODEL_LOG(ERR, "%s: interrupt %" PRIu64 " not handled within "
			  "%d s", fn->name, gen, MODEL_IRQ_WAIT_S);
}
