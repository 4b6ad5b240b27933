// SPDX-License-Identifier: GPL-2.0
/* A veth pair for the tests that need XDP or tc on a real device; see net.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include "net.h"


static struct rtattr *nla_put(struct nlmsghdr *nh, int type, const void *data, int len)
{
	struct rtattr *rta = (void *)nh + NLMSG_ALIGN(nh->nlmsg_len);

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	return rta;
}

static void nla_end(struct nlmsghdr *nh, struct rtattr *nest)
{
	nest->rta_len = (void *)nh + nh->nlmsg_len - (void *)nest;
}

static int set_up(const char *name)
{
	struct ifreq ifr = {};
	int fd, err = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) ||
	    (ifr.ifr_flags |= IFF_UP, ioctl(fd, SIOCSIFFLAGS, &ifr)))
		err = -errno;
	close(fd);
	return err;
}

int veth_create(const char *name, const char *peer)
{
	/* The message is built in a plain buffer that it grows into. */
	union {
		struct nlmsghdr nh;
		char buf[512];
	} req = {};
	struct nlmsghdr *nh = &req.nh;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC }, peer_ifi = {};
	struct rtattr *info, *data, *peer_attr;
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
	} ack;
	int fd, err;

	nh->nlmsg_len = NLMSG_LENGTH(sizeof(ifi));
	nh->nlmsg_type = RTM_NEWLINK;
	nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK;
	memcpy(NLMSG_DATA(nh), &ifi, sizeof(ifi));
	nla_put(nh, IFLA_IFNAME, name, strlen(name) + 1);
	info = nla_put(nh, IFLA_LINKINFO, NULL, 0);
	nla_put(nh, IFLA_INFO_KIND, "veth", 4);
	data = nla_put(nh, IFLA_INFO_DATA, NULL, 0);
	peer_attr = nla_put(nh, VETH_INFO_PEER, &peer_ifi, sizeof(peer_ifi));
	nla_put(nh, IFLA_IFNAME, peer, strlen(peer) + 1);
	nla_end(nh, peer_attr);
	nla_end(nh, data);
	nla_end(nh, info);

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (send(fd, nh, nh->nlmsg_len, 0) < 0 ||
	    recv(fd, &ack, sizeof(ack), 0) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	close(fd);
	if (ack.nh.nlmsg_type == NLMSG_ERROR && ack.err.error)
		return ack.err.error;
	err = set_up(name);
	return err ?: set_up(peer);
}

int veth_send(const char *name, int count)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_802_EX1),
		.sll_halen = ETH_ALEN,
	};
	unsigned char frame[64] = {};
	int fd, i, sent = 0;

	sll.sll_ifindex = if_nametoindex(name);
	if (!sll.sll_ifindex)
		return -errno;
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(frame, 0xff, ETH_ALEN);		/* broadcast */
	frame[6] = 0x02;			/* locally administered source */
	frame[12] = ETH_P_802_EX1 >> 8;
	frame[13] = ETH_P_802_EX1 & 0xff;
	for (i = 0; i < count; i++)
		if (sendto(fd, frame, sizeof(frame), 0, (void *)&sll, sizeof(sll)) == sizeof(frame))
			sent++;
	close(fd);
	return sent;
}
