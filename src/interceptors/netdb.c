/* Addresses converted and names looked up: inet_ntop, inet_pton and
 * inet_aton, getnameinfo and getaddrinfo; the user and group databases'
 * lookups by name and their reentrant forms. Checked before the call
 * (io.h): the address read by its family's size, strings up to their
 * terminator, structures whole, buffers up to the size the caller states.
 * Where the bytes written depend on the answer (inet_pton and inet_aton
 * write only when the text is an address), the answer is made in a buffer
 * of our own first, then checked and copied. A bad call fails with EFAULT
 * (getnameinfo and getaddrinfo with EAI_SYSTEM, the _r lookups answer
 * EFAULT). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <grp.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>

#include "io.h"

/* The bytes of an address of family af, or 0 for one glibc does not
 * convert (it fails with EAFNOSUPPORT, touching nothing). */
static size_t addr_size(int af)
{
	return af == AF_INET    ? sizeof(struct in_addr)
	       : af == AF_INET6 ? sizeof(struct in6_addr)
	                        : 0;
}

LIBC(inet_ntop)
INTERPOSER const char *inet_ntop(int af, const void *src, char *dst, socklen_t size)
{
	size_t n = addr_size(af);
	if (n && !(CHECK_READ(src, n) && CHECK_WRITE(dst, size))) {
		errno = EFAULT;
		return NULL;
	}
	return get_inet_ntop()(af, src, dst, size);
}

LIBC(inet_pton)
INTERPOSER int inet_pton(int af, const char *src, void *dst)
{
	struct in6_addr tmp;
	size_t n = addr_size(af);
	if (!n)
		return get_inet_pton()(af, src, dst);
	if (!CHECK_STR(src)) {
		errno = EFAULT;
		return -1;
	}
	int r = get_inet_pton()(af, src, &tmp);
	if (r != 1)
		return r;
	if (!CHECK_WRITE(dst, n)) {
		errno = EFAULT;
		return -1;
	}
	libc_memcpy(dst, &tmp, n);
	return r;
}

/* Answers 0 for a bad call, as for text that is not an address. */
LIBC(inet_aton)
INTERPOSER int inet_aton(const char *cp, struct in_addr *inp)
{
	struct in_addr tmp;
	if (!CHECK_STR(cp)) {
		errno = EFAULT;
		return 0;
	}
	int r = get_inet_aton()(cp, &tmp);
	if (!r)
		return r;
	/* glibc's takes a null inp for a check of the text alone. */
	if (!MAYBE_NULL(inp))
		return r;
	if (!CHECK_WRITE(inp, sizeof(*inp))) {
		errno = EFAULT;
		return 0;
	}
	*inp = tmp;
	return r;
}

// clang-format off
CHECKED(int, getnameinfo, (const struct sockaddr *sa, socklen_t salen, char *host,
	socklen_t hostlen, char *serv, socklen_t servlen, int flags),
	(sa, salen, host, hostlen, serv, servlen, flags),
	CHECK_READ(sa, salen) && (!host || !hostlen || CHECK_WRITE(host, hostlen)) &&
	(!serv || !servlen || CHECK_WRITE(serv, servlen)), EAI_SYSTEM)
CHECKED(int, getaddrinfo, (const char *node, const char *service, const struct addrinfo *hints,
	struct addrinfo **res), (node, service, hints, res),
	(!node || CHECK_STR(node)) && (!service || CHECK_STR(service)) &&
	CHECK_READ_OPT(hints, sizeof(*hints)) && CHECK_WRITE(res, sizeof(*res)), EAI_SYSTEM)

CHECKED(struct passwd *, getpwnam, (const char *name), (name), CHECK_STR(name), NULL)
CHECKED(struct group *, getgrnam, (const char *name), (name), CHECK_STR(name), NULL)
// clang-format on

/* The reentrant lookups: the answer's pointer, the entry and the buffer
 * for its strings are all written. */
/* glibc answers no entry in *result whenever it fails. */
#define ENT_R(type, name, key_t, key_check)                                                        \
	LIBC(name)                                                                                 \
	INTERPOSER int name(key_t key, struct type *ent, char *buf, size_t len,                    \
	                    struct type **result)                                                  \
	{                                                                                          \
		if (!CHECK_WRITE(result, sizeof(*result)))                                         \
			return EFAULT;                                                             \
		if (!(key_check && CHECK_WRITE(ent, sizeof(*ent)) && CHECK_WRITE(buf, len))) {     \
			*result = NULL;                                                            \
			return EFAULT;                                                             \
		}                                                                                  \
		return get_##name()(key, ent, buf, len, result);                                   \
	}

ENT_R(passwd, getpwnam_r, const char *, CHECK_STR(key))
ENT_R(passwd, getpwuid_r, uid_t, 1)
ENT_R(group, getgrnam_r, const char *, CHECK_STR(key))
ENT_R(group, getgrgid_r, gid_t, 1)
