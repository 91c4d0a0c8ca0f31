/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * libFuzzer harness of the shm control-message parser (ism_shm_msg_parse), the
 * first code that sees what another process sends. Built with clang
 * (-fsanitize=fuzzer,address,undefined) when meson option fuzz is true.
 *
 * Input: byte 0 chooses the number of fds "received" (bits 0-1) and the
 * mode (bit 7): raw bytes as the datagram, or a message built with a valid
 * header and type (byte 1) from the remaining bytes, with one byte
 * optionally flipped, so that every type's body checks are reached without
 * a seed corpus. Whatever the parser accepts must satisfy the rules of the
 * wire format, restated here independently; a violation aborts.
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ism_shm_msg.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

static int
zero(const uint8_t *p, size_t n)
{
	while (n-- > 0)
		if (*p++ != 0)
			return 0;
	return 1;
}

static void
token_ok(uint64_t t)
{
	/* Bits 0-19 and 23-27 (the ISM move_data request encoding). */
	REQUIRE((t & UINT64_C(0x0f8fffff)) == 0);
	REQUIRE(ism_sw_tok_idx(t) >= SHM_IDX_FIRST);
	REQUIRE(ism_sw_tok_slot(t) < SHM_MAX_SLOTS);
}

/* The rules of an accepted message. */
static void
check_accepted(const struct shm_msg *m, size_t len, unsigned int nb_fds)
{
	unsigned int t = m->hdr.type;
	int request = t != SHM_MSG_HELLO && t != SHM_MSG_READY &&
		t != SHM_MSG_ACK && t != SHM_MSG_REFUSE && t != SHM_MSG_WAKE;

	REQUIRE(len == sizeof(*m));
	REQUIRE(m->hdr.magic == SHM_MSG_MAGIC);
	REQUIRE(m->hdr.version == SHM_PROTO_VERSION);
	REQUIRE(m->hdr.len == sizeof(*m));
	REQUIRE(t > 0 && t < SHM_MSG_TYPE_END);
	REQUIRE(strcmp(ism_shm_msg_type_name(t), "?") != 0);
	REQUIRE(request == (m->hdr.seq != 0));
	switch (t) {
	case SHM_MSG_HELLO:
		REQUIRE(nb_fds == 1);
		REQUIRE(m->u.hello.gid.gid != 0 || m->u.hello.gid.gid_ext != 0);
		REQUIRE(m->u.hello.slot < SHM_MAX_SLOTS);
		REQUIRE(m->u.hello.max_dmbs >= 1 && m->u.hello.max_dmbs <=
			SHM_NB_IDX - SHM_IDX_FIRST);
		REQUIRE(m->u.hello.max_dmb_len >= 1 &&
			m->u.hello.max_dmb_len <= SHM_MAX_DMB_LEN);
		REQUIRE(zero(m->u.hello.reserved, sizeof(m->u.hello.reserved)));
		break;
	case SHM_MSG_DMB_ADD:
		REQUIRE(nb_fds <= 1);
		token_ok(m->u.dmb.token);
		REQUIRE(ism_sw_tok_idx(m->u.dmb.token) == m->u.dmb.idx);
		REQUIRE(m->u.dmb.len >= 1 && m->u.dmb.len <= SHM_MAX_DMB_LEN);
		REQUIRE(m->u.dmb.rgid.gid != 0 || m->u.dmb.rgid.gid_ext != 0);
		break;
	case SHM_MSG_DMB_DEL:
	case SHM_MSG_ATTACH:
	case SHM_MSG_DETACH:
		REQUIRE(nb_fds == 0);
		token_ok(m->u.tok.token);
		break;
	case SHM_MSG_ACK:
		REQUIRE(nb_fds == 0);
		REQUIRE(m->u.ack.seq != 0);
		REQUIRE(m->u.ack.status <= 0 && m->u.ack.status >= -4095);
		break;
	case SHM_MSG_REFUSE:
		REQUIRE(nb_fds == 0);
		REQUIRE(m->u.refuse.reason < 0 &&
			m->u.refuse.reason >= -4095);
		break;
	case SHM_MSG_WAKE:
		REQUIRE(nb_fds == 1);
		REQUIRE(zero(m->u.raw, sizeof(m->u.raw)));
		break;
	default:
		REQUIRE(nb_fds == 0);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t buf[2 * sizeof(struct shm_msg)];
	const char *why = NULL;
	unsigned int nb_fds;
	struct shm_msg m, again;
	size_t len;
	int ret;

	if (size < 2)
		return 0;
	nb_fds = data[0] & 3;
	if (data[0] & 0x80) {
		ism_shm_msg_init(&m, 1 + data[1] % (SHM_MSG_TYPE_END - 1),
			     data[0] & 0x40 ? 0 : 1);
		len = size - 2 < sizeof(m.u) ? size - 2 : sizeof(m.u);
		memcpy(&m.u, data + 2, len);
		memcpy(buf, &m, sizeof(m));
		len = sizeof(m);
		if ((data[0] & 0x20) && size > 4)
			buf[data[2] % len] ^= data[3];
	} else {
		len = size - 1 < sizeof(buf) ? size - 1 : sizeof(buf);
		memcpy(buf, data + 1, len);
	}
	ret = ism_shm_msg_parse(buf, len, nb_fds, &m, &why);
	if (ret != 0) {
		REQUIRE(ret == -EBADMSG && why != NULL && why[0] != '\0');
		return 0;
	}
	check_accepted(&m, len, nb_fds);
	/* Parsing is a pure function of the bytes. */
	REQUIRE(ism_shm_msg_parse(&m, sizeof(m), nb_fds, &again, &why) == 0);
	REQUIRE(memcmp(&m, &again, sizeof(m)) == 0);
	return 0;
}
