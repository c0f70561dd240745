// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Addresses converted and looked up (tests/generic/_family.h): inet_ntop's
// address read and text written, inet_pton's and inet_aton's text read and
// address written, getnameinfo's socket address read and host and service
// written, getaddrinfo's node, service and hints read and answer written,
// each on a heap, a stack and a global buffer exactly, then one byte past
// it (the structures one byte short). Only numeric lookups: no network.
// NOT: TEST FAILED
#define _GNU_SOURCE
#include "_family_io.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#define OUT char out[64]
#define AT(T) ((T *)(b + over))

/* 127.0.0.1 port 80, and hints for numeric lookups. */
static struct sockaddr_in sin_lo;
static const struct addrinfo hints_num = {.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE};
#define LO ((const struct sockaddr *)&sin_lo)
#define NI NI_NUMERICHOST | NI_NUMERICSERV
#define RES struct addrinfo *res

FAMILY_CASE(inet_ntop_src, "Read", family_zero(b, n); OUT, kasan_ptr_result = (void *)inet_ntop(AF_INET6, b + over, out, sizeof(out)), b + over, sizeof(struct in6_addr))
FAMILY_CASE(inet_ntop_dst, "Write", , kasan_ptr_result = (void *)inet_ntop(AF_INET, family_big, b, n), b, n)
FAMILY_CASE(inet_pton_src, "Read", family_string(b, n); OUT, kasan_int_result = inet_pton(AF_INET6, b, out), b, n)
FAMILY_CASE(inet_pton_dst, "Write", , kasan_int_result = inet_pton(AF_INET6, "::1", b + over), b + over, sizeof(struct in6_addr))
FAMILY_CASE(inet_aton_cp, "Read", family_string(b, n); struct in_addr a, kasan_int_result = inet_aton(b, &a), b, n)
FAMILY_CASE_SIZED(inet_aton_inp, sizeof(struct in_addr), "Write", , kasan_int_result = inet_aton("1.2.3.4", AT(struct in_addr)), b + over, sizeof(struct in_addr))
FAMILY_CASE(getnameinfo_sa, "Read", family_put(b + over, &sin_lo, sizeof(sin_lo)); OUT, kasan_int_result = getnameinfo((struct sockaddr *)(b + over), sizeof(sin_lo), out, sizeof(out), NULL, 0, NI), b + over, sizeof(sin_lo))
FAMILY_CASE(getnameinfo_host, "Write", , kasan_int_result = getnameinfo(LO, sizeof(sin_lo), b, n, NULL, 0, NI), b, n)
FAMILY_CASE(getnameinfo_serv, "Write", , kasan_int_result = getnameinfo(LO, sizeof(sin_lo), NULL, 0, b, n, NI), b, n)
FAMILY_CASE(getaddrinfo_node, "Read", family_string(b, n); RES, kasan_int_result = getaddrinfo(b, "80", &hints_num, &res), b, n)
FAMILY_CASE(getaddrinfo_service, "Read", family_string(b, n); RES, kasan_int_result = getaddrinfo("127.0.0.1", b, &hints_num, &res), b, n)
FAMILY_CASE_SIZED(getaddrinfo_hints, sizeof(struct addrinfo), "Read", family_put(b + over, &hints_num, sizeof(hints_num)); RES, kasan_int_result = getaddrinfo("127.0.0.1", "80", AT(struct addrinfo), &res), b + over, sizeof(struct addrinfo))
FAMILY_CASE_SIZED(getaddrinfo_res, sizeof(struct addrinfo *), "Write", , kasan_int_result = getaddrinfo("127.0.0.1", "80", &hints_num, AT(struct addrinfo *)), b + over, sizeof(struct addrinfo *))

int main(void)
{
	sin_lo.sin_family = AF_INET;
	sin_lo.sin_port = htons(80);
	sin_lo.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	FAMILY_RUN(inet_ntop_src);
	FAMILY_RUN(inet_ntop_dst);
	FAMILY_RUN(inet_pton_src);
	FAMILY_RUN(inet_pton_dst);
	FAMILY_RUN(inet_aton_cp);
	FAMILY_RUN(inet_aton_inp);
	FAMILY_RUN(getnameinfo_sa);
	FAMILY_RUN(getnameinfo_host);
	FAMILY_RUN(getnameinfo_serv);
	FAMILY_RUN(getaddrinfo_node);
	FAMILY_RUN(getaddrinfo_service);
	FAMILY_RUN(getaddrinfo_hints);
	FAMILY_RUN(getaddrinfo_res);
	return 0;
}
