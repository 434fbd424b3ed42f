package netguard

// Which addresses are public. The list is the IANA special-purpose address
// registries, whose "Globally Reachable" column says which blocks a datagram
// may reach beyond their own network:
//
//	IPv4: https://www.iana.org/assignments/iana-ipv4-special-registry/ (RFC 6890, RFC 8190)
//	IPv6: https://www.iana.org/assignments/iana-ipv6-special-registry/ (RFC 6890, RFC 8190)
//
// with IPv4 multicast (RFC 5771), IPv6 multicast and the deprecated site-local
// block (the IPv6 Address Space registry), and every IPv6 address outside
// 2000::/3, the only IPv6 space IANA allocates for global unicast. Addresses
// that carry an IPv4 address (IPv4-mapped ::ffff:0:0/96, NAT64's well-known
// prefix 64:ff9b::/96, 6to4's 2002::/16) are judged by the address they
// carry: the translator or relay they name connects there.
//
// Written here rather than taken from a library: code.dny.dev/ssrf, the one
// kept in sync with these registries, refuses whole blocks, including the
// globally reachable anycast blocks inside them, does not judge embedded
// addresses, and names no block, while an error here says which block an
// address is in and why it is refused.

import (
	"net/netip"
	"strings"
)

// addressBlock is one entry of the tables below.
type addressBlock struct {
	prefix netip.Prefix
	// kind names the block in "a <kind> address"; empty for a globally
	// reachable block inside a larger one that is not (an anycast address).
	kind string
	// source names the registry entry: its name and RFC.
	source string
}

func block(prefix, kind, source string) addressBlock {
	return addressBlock{prefix: netip.MustParsePrefix(prefix), kind: kind, source: source}
}

// ipv4Blocks are the blocks of IPv4 that are not globally reachable, with the
// globally reachable entries inside them (kind "").
var ipv4Blocks = []addressBlock{
	block("0.0.0.0/8", "unspecified", `"this network", RFC 791`),
	block("10.0.0.0/8", "private", "private-use, RFC 1918"),
	block("100.64.0.0/10", "shared (carrier-grade NAT)", "shared address space, RFC 6598"),
	block("127.0.0.0/8", "loopback", "loopback, RFC 1122"),
	block("169.254.0.0/16", "link-local", "link local, RFC 3927"),
	block("172.16.0.0/12", "private", "private-use, RFC 1918"),
	block("192.0.0.0/24", "IETF protocol assignment", "IETF protocol assignments, RFC 6890"),
	block("192.0.0.0/29", "IETF protocol assignment", "IPv4 service continuity prefix, RFC 7335"),
	block("192.0.0.8/32", "IETF protocol assignment", "IPv4 dummy address, RFC 7600"),
	block("192.0.0.9/32", "", "Port Control Protocol anycast, RFC 7723"),
	block("192.0.0.10/32", "", "TURN anycast, RFC 8155"),
	block("192.0.0.170/31", "IETF protocol assignment", "NAT64/DNS64 discovery, RFC 8880"),
	block("192.0.2.0/24", "documentation", "TEST-NET-1, RFC 5737"),
	// Deprecated, its 6a44 relay (192.88.99.2, marked globally reachable)
	// included: an anycast relay forwards to a host no one here can judge.
	block("192.88.99.0/24", "deprecated relay", "6to4 relay anycast, deprecated by RFC 7526"),
	block("192.168.0.0/16", "private", "private-use, RFC 1918"),
	block("198.18.0.0/15", "benchmarking", "benchmarking, RFC 2544"),
	block("198.51.100.0/24", "documentation", "TEST-NET-2, RFC 5737"),
	block("203.0.113.0/24", "documentation", "TEST-NET-3, RFC 5737"),
	block("224.0.0.0/4", "multicast", "multicast, RFC 5771"),
	block("224.0.0.0/24", "link-local", "local network control multicast, RFC 5771"),
	block("240.0.0.0/4", "reserved", "reserved, RFC 1112"),
	block("255.255.255.255/32", "broadcast", "limited broadcast, RFC 919"),
}

// ipv6Blocks are the blocks of IPv6 that are not globally reachable, with the
// globally reachable entries inside them (kind ""). The blocks that embed an
// IPv4 address are judged by it (see embeddedIPv4) before these.
var ipv6Blocks = []addressBlock{
	block("::/128", "unspecified", "unspecified address, RFC 4291"),
	block("::1/128", "loopback", "loopback address, RFC 4291"),
	block("64:ff9b:1::/48", "NAT64 local-use", "local-use IPv4/IPv6 translation, RFC 8215"),
	block("100::/64", "discard-only", "discard-only address block, RFC 6666"),
	block("100:0:0:1::/64", "dummy", "dummy IPv6 prefix, RFC 9780"),
	block("2001::/23", "IETF protocol assignment", "IETF protocol assignments, RFC 2928"),
	block("2001::/32", "Teredo", "Teredo, RFC 4380"),
	block("2001:1::1/128", "", "Port Control Protocol anycast, RFC 7723"),
	block("2001:1::2/128", "", "TURN anycast, RFC 8155"),
	block("2001:1::3/128", "", "DNS-SD service registration protocol anycast, RFC 9665"),
	block("2001:2::/48", "benchmarking", "benchmarking, RFC 5180"),
	block("2001:3::/32", "", "AMT, RFC 7450"),
	block("2001:4:112::/48", "", "AS112-v6, RFC 7535"),
	block("2001:10::/28", "deprecated ORCHID", "deprecated (previously ORCHID), RFC 4843"),
	block("2001:20::/28", "", "ORCHIDv2, RFC 7343"),
	block("2001:30::/28", "", "drone remote ID protocol entity tags, RFC 9374"),
	block("2001:db8::/32", "documentation", "documentation, RFC 3849"),
	block("3fff::/20", "documentation", "documentation, RFC 9637"),
	block("5f00::/16", "SRv6 SID", "segment routing (SRv6) SIDs, RFC 9602"),
	block("fc00::/7", "private", "unique-local, RFC 4193"),
	block("fe80::/10", "link-local", "link-local unicast, RFC 4291"),
	block("fec0::/10", "deprecated site-local", "site-local, deprecated by RFC 3879"),
	block("ff00::/8", "multicast", "multicast, RFC 4291"),
	block("ff01::/16", "interface-local", "interface-local multicast, RFC 4291"),
	block("ff02::/16", "link-local", "link-local multicast, RFC 4291"),
}

// globalUnicast is 2000::/3: every IPv6 address outside it (and outside the
// blocks above) is reserved by the IETF, not allocated to anyone.
var globalUnicast = netip.MustParsePrefix("2000::/3")

// Verdict is what an address is.
type Verdict struct {
	// Kind names the block the address is in, as in "a <Kind> address"; ""
	// for a globally reachable address.
	Kind string
	// Source names the block, its registry entry, and what carried the
	// address (an IPv4 address inside an IPv6 one).
	Source string
}

// Public says whether the address is globally reachable.
func (v Verdict) Public() bool { return v.Kind == "" }

// Judge says whether a is globally reachable, and when it is not, which block
// it is in.
func Judge(a netip.Addr) Verdict {
	a = a.WithZone("")
	switch {
	case !a.IsValid():
		return Verdict{Kind: "invalid", Source: "not an IP address"}
	case a.Is4In6():
		return carried(a.Unmap(), "::ffff:0:0/96", "IPv4-mapped, RFC 4291")
	case a.Is4():
		return judgeIn(a, ipv4Blocks)
	}
	if v4, pfx, src, ok := embeddedIPv4(a); ok {
		return carried(v4, pfx, src)
	}
	v := judgeIn(a, ipv6Blocks)
	if v.Source == "" && !globalUnicast.Contains(a) {
		return Verdict{Kind: "reserved", Source: "outside 2000::/3, reserved by the IETF (IANA IPv6 address space)"}
	}
	return v
}

// judgeIn finds the longest prefix of blocks that holds a.
func judgeIn(a netip.Addr, blocks []addressBlock) Verdict {
	best := -1
	for i, b := range blocks {
		if b.prefix.Contains(a) && (best < 0 || b.prefix.Bits() > blocks[best].prefix.Bits()) {
			best = i
		}
	}
	if best < 0 {
		return Verdict{}
	}
	b := blocks[best]
	return Verdict{Kind: b.kind, Source: b.prefix.String() + ", " + b.source}
}

// carried judges the IPv4 address that an IPv6 address carries.
func carried(v4 netip.Addr, prefix, source string) Verdict {
	v := Judge(v4)
	if v.Kind == "" {
		return Verdict{}
	}
	return Verdict{Kind: v.Kind, Source: v4.String() + " carried in " + prefix + " (" + source + "); " + v.Source}
}

var (
	nat64WellKnown = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour      = netip.MustParsePrefix("2002::/16")
)

// embeddedIPv4 returns the IPv4 address that a NAT64 well-known-prefix
// address (its last 32 bits, RFC 6052) or a 6to4 address (bits 16 to 47, RFC
// 3056) carries.
func embeddedIPv4(a netip.Addr) (netip.Addr, string, string, bool) {
	b := a.As16()
	switch {
	case nat64WellKnown.Contains(a):
		return netip.AddrFrom4([4]byte(b[12:16])), nat64WellKnown.String(), "NAT64 well-known prefix, RFC 6052", true
	case sixToFour.Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), sixToFour.String(), "6to4, RFC 3056", true
	}
	return netip.Addr{}, "", "", false
}

// article is "a" or "an" for the kind of an address, as in "an IETF protocol
// assignment address".
func article(kind string) string {
	if kind != "" && strings.ContainsRune("aeiouAEIOU", rune(kind[0])) {
		return "an"
	}
	return "a"
}
