/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The "ism" device as a zPCI function of qemu-system-s390x (QEMU 7.2's
 * s390 PCI host bridge, hw/s390x/s390-pci-bus.c, s390-pci-inst.c).
 *
 * Store blocks. QEMU 7.2's PCISTB (pcistb_service_call()) takes from an
 * emulated function what a generic PCI device can take: an 8-byte aligned
 * offset, a length above 8 and a multiple of 8, at most the group's
 * maxstbl (128 for emulated functions, and its buffer holds no more), and
 * hands the device the block as 8-byte writes. ISM is reached with
 * relaxed alignment: Linux's ism driver stores a command header of 8
 * bytes, bodies of 8 to 32, and DMB data of any length up to 4 KiB at any
 * offset, each as one PCISTB (drivers/s390/net/ism.h: __ism_write_cmd(),
 * __ism_move()); QEMU would answer most of them with a specification
 * exception. So devtools/qemu-ism.sh links qemu-system-s390x with
 * -Wl,--wrap=pcistb_service_call: the instruction comes here first; for an
 * "ism" function this file runs it (the checks of the architecture that
 * ISM needs: enabled handle, BAR, 1 to maxstbl bytes not crossing a 4 KiB
 * boundary), reads the whole block from the guest and gives it to the
 * device in one call, under the iothread lock as the TCG helper holds it;
 * every other function goes to QEMU's own code unchanged. A store block
 * is therefore one access to the device, and its signal comes after its
 * last byte.
 *
 * Identity. At machine start the function's zPCI description becomes
 * ISM's: function type 5 (ISM), PCHID = the device's fabric id (Linux's
 * ism driver reports it as the CHID), and a function group of its own
 * with maxstbl 4096 (a copy of QEMU's default group otherwise). Cold
 * plugged functions only: a hot plugged one keeps QEMU's defaults.
 */

#include "qemu/osdep.h"
#include "cpu.h"
#include "hw/pci/pci.h"
#include "hw/s390x/s390-pci-bus.h"
#include "hw/s390x/s390-pci-inst.h"
#include "qemu/module.h"
#include "qemu/notify.h"
#include "sysemu/sysemu.h"

#include "ism_qemu.h"

#define ISM_PFT			0x05	/* zPCI function type of ISM */
#define ISM_MAXSTBL		4096
/* Choice: a group id QEMU 7.2 gives no other function (its default
 * group is 0xff, simulated ones 0xf0 up). */
#define ISM_GROUP		0xe0
/*
 * Choice: the status of a store block the device refused (unknown token,
 * not the DMB's writer, past its end); Linux's ism driver sees -EIO for
 * any condition code 1 and logs the status.
 */
#define ISM_STATUS_REFUSED	ZPCI_PCI_ST_INSUF_RES

int __real_pcistb_service_call(S390CPU *cpu, uint8_t r1, uint8_t r3,
		uint64_t gaddr, uint8_t ar, uintptr_t ra);
int __wrap_pcistb_service_call(S390CPU *cpu, uint8_t r1, uint8_t r3,
		uint64_t gaddr, uint8_t ar, uintptr_t ra);

static void
set_status(CPUS390XState *env, uint8_t r, uint8_t status)
{
	env->regs[r] = (env->regs[r] & ~UINT64_C(0xff000000)) |
		(uint64_t)status << 24;
}

static int
ism_pcistb(S390CPU *cpu, S390PCIBusDevice *pbdev, uint8_t r1, uint8_t r3,
		uint64_t gaddr, uint8_t ar, uintptr_t ra)
{
	CPUS390XState *env = &cpu->env;
	uint8_t pcias = (env->regs[r1] >> 16) & 0xf;
	uint16_t len = env->regs[r1] & 0x1fff;
	uint64_t off = env->regs[r3];
	static uint8_t buf[ISM_MAXSTBL];

	if (env->psw.mask & PSW_MASK_PSTATE) {
		s390_program_interrupt(env, PGM_PRIVILEGED, ra);
		return 0;
	}
	if (pbdev->state == ZPCI_FS_ERROR ||
	    pbdev->state == ZPCI_FS_PERMANENT_ERROR) {
		setcc(cpu, ZPCI_PCI_LS_ERR);
		set_status(env, r1, ZPCI_PCI_ST_BLOCKED);
		return 0;
	}
	if (pcias > ZPCI_IO_BAR_MAX) {
		setcc(cpu, ZPCI_PCI_LS_ERR);
		set_status(env, r1, ZPCI_PCI_ST_INVAL_AS);
		return 0;
	}
	if (len == 0 || len > ISM_MAXSTBL || (off & 0xfff) + len > 0x1000) {
		s390_program_interrupt(env, PGM_SPECIFICATION, ra);
		return 0;
	}
	if (s390_cpu_virt_mem_read(cpu, gaddr, ar, buf, len)) {
		s390_cpu_virt_mem_handle_exc(cpu, ra);
		return 0;
	}
	if (ism_qemu_store_block(pbdev->pdev, pcias, off, buf, len) < 0) {
		setcc(cpu, ZPCI_PCI_LS_ERR);
		set_status(env, r1, ISM_STATUS_REFUSED);
		return 0;
	}
	pbdev->fmb.counter[ZPCI_FMB_CNT_STB]++;
	setcc(cpu, ZPCI_PCI_LS_OK);
	return 0;
}

int
__wrap_pcistb_service_call(S390CPU *cpu, uint8_t r1, uint8_t r3,
		uint64_t gaddr, uint8_t ar, uintptr_t ra)
{
	uint32_t fh = cpu->env.regs[r1] >> 32;
	S390PCIBusDevice *pbdev = NULL;

	if (fh & FH_MASK_ENABLE)
		pbdev = s390_pci_find_dev_by_fh(s390_get_phb(), fh);
	if (pbdev == NULL || pbdev->pdev == NULL ||
	    !ism_qemu_is_ism(pbdev->pdev))
		return __real_pcistb_service_call(cpu, r1, r3, gaddr, ar, ra);
	return ism_pcistb(cpu, pbdev, r1, r3, gaddr, ar, ra);
}

static S390PCIGroup *
ism_group(void)
{
	S390PCIGroup *g = s390_group_find(ISM_GROUP);
	S390PCIGroup *def;

	if (g != NULL)
		return g;
	def = s390_group_find(ZPCI_DEFAULT_FN_GRP);
	if (def == NULL)
		return NULL;
	g = s390_group_create(ISM_GROUP, ISM_GROUP);
	g->zpci_group = def->zpci_group;
	g->zpci_group.maxstbl = ISM_MAXSTBL;
	return g;
}

static void
ism_s390_machine_done(Notifier *n, void *unused)
{
	S390pciState *s;
	S390PCIBusDevice *pbdev;
	S390PCIGroup *g;

	(void)n;
	(void)unused;
	/* No PCI host bridge (a machine or CPU model without zPCI). */
	if (object_resolve_path_type("", TYPE_S390_PCI_HOST_BRIDGE, NULL) ==
	    NULL)
		return;
	s = s390_get_phb();
	QTAILQ_FOREACH(pbdev, &s->zpci_devs, link) {
		if (pbdev->pdev == NULL || !ism_qemu_is_ism(pbdev->pdev))
			continue;
		g = ism_group();
		if (g != NULL) {
			pbdev->pci_group = g;
			pbdev->zpci_fn.pfgid = ISM_GROUP;
		}
		pbdev->zpci_fn.pft = ISM_PFT;
		pbdev->zpci_fn.pchid = ism_qemu_fabric(pbdev->pdev);
	}
}

static Notifier ism_s390_done = { .notify = ism_s390_machine_done };

static void
ism_s390_init(void)
{
	qemu_add_machine_init_done_notifier(&ism_s390_done);
}

type_init(ism_s390_init)
