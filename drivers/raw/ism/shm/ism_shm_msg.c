/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Parser of the shm control messages. A message comes from another process
 * that may be buggy or hostile, so every field is checked before anything
 * else looks at it; what needs connection state (is this peer allowed to
 * send this now, does the token belong to it) is checked by the caller.
 */

#include <errno.h>
#include <string.h>

#include "ism_shm_msg.h"

static const char *const type_names[SHM_MSG_TYPE_END] = {
	[SHM_MSG_HELLO] = "HELLO",
	[SHM_MSG_READY] = "READY",
	[SHM_MSG_DMB_ADD] = "DMB_ADD",
	[SHM_MSG_DMB_DEL] = "DMB_DEL",
	[SHM_MSG_ATTACH] = "ATTACH",
	[SHM_MSG_DETACH] = "DETACH",
	[SHM_MSG_EVENT] = "EVENT",
	[SHM_MSG_BYE] = "BYE",
	[SHM_MSG_ACK] = "ACK",
	[SHM_MSG_REFUSE] = "REFUSE",
	[SHM_MSG_WAKE] = "WAKE",
};

const char *
ism_shm_msg_type_name(unsigned int type)
{
	if (type >= SHM_MSG_TYPE_END || type_names[type] == NULL)
		return "?";
	return type_names[type];
}

void
ism_shm_msg_init(struct shm_msg *m, enum shm_msg_type type, uint32_t seq)
{
	memset(m, 0, sizeof(*m));
	m->hdr.magic = SHM_MSG_MAGIC;
	m->hdr.version = SHM_PROTO_VERSION;
	m->hdr.type = type;
	m->hdr.len = sizeof(*m);
	m->hdr.seq = seq;
}

static int
all_zero(const uint8_t *p, size_t n)
{
	while (n-- > 0)
		if (*p++ != 0)
			return 0;
	return 1;
}

static int
gid_zero(const struct shm_msg_gid *g)
{
	return g->gid == 0 && g->gid_ext == 0;
}

/* A token as the owner makes them: low bits zero, index in range. */
static int
token_ok(uint64_t token)
{
	unsigned int idx = ism_sw_tok_idx(token);

	return (token & ISM_SW_TOK_ZERO_MASK) == 0 && idx >= SHM_IDX_FIRST;
}

static const char *
check_body(const struct shm_msg *m, unsigned int nb_fds)
{
	const struct shm_msg_hello *h = &m->u.hello;
	const struct shm_msg_dmb *d = &m->u.dmb;

	switch (m->hdr.type) {
	case SHM_MSG_HELLO:
		if (nb_fds != 1)
			return "HELLO must carry exactly one fd (its SBA)";
		if (gid_zero(&h->gid))
			return "HELLO with a zero GID";
		if (h->slot >= SHM_MAX_SLOTS)
			return "HELLO with a slot out of range";
		if (h->max_dmbs == 0 ||
		    h->max_dmbs > SHM_NB_IDX - SHM_IDX_FIRST)
			return "HELLO with max_dmbs out of range";
		if (h->max_dmb_len == 0 || h->max_dmb_len > SHM_MAX_DMB_LEN)
			return "HELLO with max_dmb_len out of range";
		if (!all_zero(h->reserved, sizeof(h->reserved)))
			return "HELLO with reserved bytes set";
		return NULL;
	case SHM_MSG_READY:
	case SHM_MSG_BYE:
		if (!all_zero(m->u.raw, sizeof(m->u.raw)))
			return "body of a message without one is not zero";
		break;
	case SHM_MSG_WAKE:
		if (nb_fds != 1)
			return "WAKE must carry exactly one fd (a socket)";
		if (!all_zero(m->u.raw, sizeof(m->u.raw)))
			return "WAKE with a body that is not zero";
		return NULL;
	case SHM_MSG_DMB_ADD:
		if (nb_fds > 1)
			return "DMB_ADD with more than one fd";
		if (!token_ok(d->token) || ism_sw_tok_idx(d->token) != d->idx)
			return "DMB_ADD with a malformed token";
		if (d->len == 0 || d->len > SHM_MAX_DMB_LEN)
			return "DMB_ADD with a length out of range";
		if (gid_zero(&d->rgid))
			return "DMB_ADD with a zero rgid";
		if (!all_zero(d->reserved, sizeof(d->reserved)))
			return "DMB_ADD with reserved bytes set";
		return NULL;
	case SHM_MSG_DMB_DEL:
	case SHM_MSG_ATTACH:
	case SHM_MSG_DETACH:
		if (!token_ok(m->u.tok.token))
			return "malformed token";
		if (!all_zero(m->u.tok.reserved, sizeof(m->u.tok.reserved)))
			return "reserved bytes set";
		break;
	case SHM_MSG_EVENT:
		if (m->u.event.trigger > 1)
			return "EVENT with trigger other than 0 or 1";
		if (!all_zero(m->u.event.reserved,
			      sizeof(m->u.event.reserved)))
			return "EVENT with reserved bytes set";
		break;
	case SHM_MSG_ACK:
		if (m->u.ack.seq == 0)
			return "ACK of seq 0";
		if (m->u.ack.status > 0 || m->u.ack.status < -4095)
			return "ACK with a status that is not 0 or -errno";
		if (!all_zero(m->u.ack.reserved, sizeof(m->u.ack.reserved)))
			return "ACK with reserved bytes set";
		break;
	case SHM_MSG_REFUSE:
		if (m->u.refuse.reason >= 0 || m->u.refuse.reason < -4095)
			return "REFUSE with a reason that is not -errno";
		if (!all_zero(m->u.refuse.reserved,
			      sizeof(m->u.refuse.reserved)))
			return "REFUSE with reserved bytes set";
		break;
	default:
		return "unknown message type";
	}
	if (nb_fds != 0)
		return "fd attached to a message that takes none";
	return NULL;
}

int
ism_shm_msg_parse(const void *buf, size_t len, unsigned int nb_fds,
		struct shm_msg *out, const char **why)
{
	const char *err = NULL;
	struct shm_msg m;
	int request;

	if (buf == NULL || len != sizeof(m)) {
		err = buf == NULL || len < sizeof(m) ? "truncated message" :
			"oversized message";
		goto bad;
	}
	memcpy(&m, buf, sizeof(m));
	if (m.hdr.magic != SHM_MSG_MAGIC)
		err = "bad magic";
	else if (m.hdr.version != SHM_PROTO_VERSION)
		err = "unsupported protocol version";
	else if (m.hdr.len != sizeof(m))
		err = "length field does not match the datagram";
	else if (m.hdr.type == 0 || m.hdr.type >= SHM_MSG_TYPE_END)
		err = "unknown message type";
	if (err != NULL)
		goto bad;
	/* Everything but HELLO, WAKE, READY, ACK and REFUSE asks for an
	 * ACK.
	 */
	request = m.hdr.type != SHM_MSG_HELLO && m.hdr.type != SHM_MSG_READY &&
		m.hdr.type != SHM_MSG_ACK && m.hdr.type != SHM_MSG_REFUSE &&
		m.hdr.type != SHM_MSG_WAKE;
	if (request != (m.hdr.seq != 0)) {
		err = request ? "request with seq 0" :
			"seq set on a message that is not a request";
		goto bad;
	}
	err = check_body(&m, nb_fds);
	if (err != NULL)
		goto bad;
	*out = m;
	return 0;
bad:
	if (why != NULL)
		*why = err;
	return -EBADMSG;
}
