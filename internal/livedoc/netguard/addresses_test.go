package netguard

import (
	"net/netip"
	"strings"
	"testing"
)

// One address of every entry of the IANA special-purpose registries (IPv4 and
// IPv6), of multicast, and of the blocks around them, with what the guard
// makes of it: "" for globally reachable.
func TestJudgeEveryRegistryEntry(t *testing.T) {
	for addr, want := range map[string]string{
		// IPv4 special-purpose registry.
		"0.0.0.0": "unspecified", "0.1.2.3": "unspecified",
		"10.1.2.3":      "private",
		"100.64.0.1":    "shared (carrier-grade NAT)",
		"100.127.255.1": "shared (carrier-grade NAT)",
		"127.0.0.1":     "loopback", "127.255.0.1": "loopback",
		"169.254.169.254": "link-local",
		"172.16.0.1":      "private", "172.31.255.254": "private",
		"192.0.0.1":   "IETF protocol assignment",                                            // IPv4 service continuity prefix
		"192.0.0.8":   "IETF protocol assignment",                                            // IPv4 dummy address
		"192.0.0.170": "IETF protocol assignment", "192.0.0.171": "IETF protocol assignment", // NAT64/DNS64 discovery
		"192.0.0.192":  "IETF protocol assignment", // the probe's address
		"192.0.2.1":    "documentation",
		"192.88.99.1":  "deprecated relay",
		"192.88.99.2":  "deprecated relay", // 6a44 relay anycast: refused with its deprecated block
		"192.168.1.1":  "private",
		"198.18.0.1":   "benchmarking",
		"198.19.255.1": "benchmarking",
		"198.51.100.7": "documentation",
		"203.0.113.9":  "documentation",
		"240.0.0.1":    "reserved", "254.1.2.3": "reserved",
		"255.255.255.255": "broadcast",
		// IPv4 multicast.
		"224.0.0.1": "link-local", "239.1.2.3": "multicast", "233.252.0.1": "multicast",
		// Globally reachable IPv4 entries, and the addresses around the blocks.
		"192.0.0.9": "", "192.0.0.10": "", // PCP and TURN anycast
		"192.31.196.1": "", "192.52.193.1": "", "192.175.48.1": "", // AS112, AMT, AS112 direct delegation
		"8.8.8.8": "", "1.1.1.1": "", "100.63.255.255": "", "100.128.0.1": "", "172.32.0.1": "",
		"192.0.1.1": "", "198.17.255.255": "", "198.20.0.1": "", "223.255.255.255": "",

		// IPv6 special-purpose registry.
		"::": "unspecified", "::1": "loopback",
		"64:ff9b:1::a01:203": "NAT64 local-use", "64:ff9b:1:ffff::808:808": "NAT64 local-use",
		"100::1":                               "discard-only",
		"100:0:0:1::1":                         "dummy",
		"2001:5::1":                            "IETF protocol assignment",
		"2001:1ff::1":                          "IETF protocol assignment",
		"2001:0:4136:e378:8000:63bf:3fff:fdd2": "Teredo",
		"2001:2::1":                            "benchmarking",
		"2001:10::1":                           "deprecated ORCHID",
		"2001:db8::1":                          "documentation",
		"3fff::1":                              "documentation", "3fff:fff::1": "documentation",
		"5f00::1": "SRv6 SID",
		"fc00::1": "private", "fd12:3456::1": "private",
		"fe80::1": "link-local", "fe80::1%eth0": "link-local",
		"fec0::1": "deprecated site-local",
		"ff02::1": "link-local", "ff01::1": "interface-local", "ff05::2": "multicast", "ff0e::1": "multicast",
		// Outside 2000::/3: reserved (the IPv4-compatible ::a.b.c.d among them).
		"::a01:203": "reserved", "::ffff:0:a01:203": "reserved", "4000::1": "reserved", "100:0:0:2::1": "reserved",
		// Globally reachable IPv6 entries inside 2001::/23, and around it.
		"2001:1::1": "", "2001:1::2": "", "2001:1::3": "", "2001:3::1": "", "2001:4:112::1": "",
		"2001:20::1": "", "2001:30::1": "", "2620:4f:8000::42": "",
		"2001:200::1": "", "2001:4860:4860::8888": "", "2a00:1450::1": "", "3ffe::1": "", "4000:0::0": "reserved",

		// IPv4 carried in IPv6, judged by what it carries.
		"::ffff:10.0.0.1": "private", "::ffff:127.0.0.1": "loopback", "::ffff:192.0.0.192": "IETF protocol assignment",
		"::ffff:8.8.8.8":     "",
		"64:ff9b::a01:203":   "private", // NAT64 of 10.1.2.3, the probe's address
		"64:ff9b::7f00:1":    "loopback",
		"64:ff9b::a9fe:a9fe": "link-local",
		"64:ff9b::808:808":   "",
		"2002:7f00:1::1":     "loopback", // 6to4 of 127.0.0.1
		"2002:a9fe:a9fe::":   "link-local",
		"2002:c000:c0::1":    "IETF protocol assignment",
		"2002:808:808::1":    "",
	} {
		v := Judge(netip.MustParseAddr(addr))
		if v.Kind != want {
			t.Errorf("Judge(%s) = %q (%s), want %q", addr, v.Kind, v.Source, want)
		}
		if want != "" && v.Source == "" {
			t.Errorf("Judge(%s) names no block", addr)
		}
	}
}

// What an error says of a carried address: the IPv4 address and the prefix
// that carried it, then the block it is in.
func TestJudgeNamesTheCarrier(t *testing.T) {
	v := Judge(netip.MustParseAddr("64:ff9b::a01:203"))
	for _, want := range []string{"10.1.2.3 carried in 64:ff9b::/96", "NAT64 well-known prefix, RFC 6052", "10.0.0.0/8, private-use, RFC 1918"} {
		if !strings.Contains(v.Source, want) {
			t.Errorf("source %q does not say %q", v.Source, want)
		}
	}
	if got := article("IETF protocol assignment") + " / " + article("loopback"); got != "an / a" {
		t.Errorf("articles: %s", got)
	}
}

// No table lists a prefix twice, and block 0 of each holds no address of
// another block of its table: what makes judgeIn's longest match the only
// one (the equivalent mutants of judgeIn rely on it).
func TestBlocksAreDistinct(t *testing.T) {
	for _, blocks := range [][]addressBlock{ipv4Blocks, ipv6Blocks} {
		seen := map[netip.Prefix]bool{}
		for i, b := range blocks {
			if seen[b.prefix] {
				t.Errorf("%s is listed twice", b.prefix)
			}
			seen[b.prefix] = true
			if i > 0 && b.prefix.Overlaps(blocks[0].prefix) {
				t.Errorf("%s overlaps %s, the first block", b.prefix, blocks[0].prefix)
			}
		}
	}
}
